import HTTP1

/// Authentication (bearer tokens, RFC 6750) and CORS checks of each request, before it is answered.
extension HTTPSession {
    /// The scope a route needs, on which store (nil: any store the token covers, checked later per store).
    static func requirement(_ route: Route) -> (scope: AccessPolicy.Scope, store: String?)? {
        switch route {
        case .health: nil
        case .listStores, .multiplexed: (.read, nil)
        case .readStore(let name), .events(let name), .webSocket(let name), .log(let name): (.read, name)
        case .postAction(let name), .reset(let name): (.write, name)
        case .putStore(let name), .deleteStore(let name): (.admin, name)
        }
    }

    /// The access of `request` to `route`, or nil after answering 401/403.
    func authorize(_ request: HTTPRequest, _ route: Route) -> Access? {
        guard let policy = context.auth, let needed = Self.requirement(route) else { return .open }
        let headOnly = request.method == "HEAD"
        guard let token = Self.token(of: request) else {
            send(error: Self.unauthorized("This endpoint needs a token: send Authorization: Bearer <token>.", invalid: false),
                keepAlive: request.keepAlive, headOnly: headOnly)
            return nil
        }
        guard let grant = policy.grant(for: token) else {
            send(error: Self.unauthorized("The token is not known; check it or ask for a new one.", invalid: true),
                keepAlive: request.keepAlive, headOnly: headOnly)
            return nil
        }
        let allowed = needed.store.map { grant.allows(needed.scope, on: $0) } ?? grant.scopes.contains(needed.scope)
        guard allowed else {
            let what = needed.store.map { "store \(JSONText.quoted($0))" } ?? "stores"
            send(error: Self.forbidden("This token may not \(needed.scope.rawValue) \(what)."),
                keepAlive: request.keepAlive, headOnly: headOnly)
            return nil
        }
        return .granted(grant)
    }

    /// The access of an already authorized request (no answer is sent).
    func authorize(silently request: HTTPRequest, _ route: Route) -> Access? {
        guard let policy = context.auth, Self.requirement(route) != nil else { return .open }
        return Self.token(of: request).flatMap(policy.grant(for:)).map(Access.granted)
    }

    /// The bearer token: `Authorization: Bearer`, else (for browsers' WebSocket and EventSource, which cannot set
    /// headers) `Sec-WebSocket-Protocol: bearer.<token>` or `?access_token=`.
    static func token(of request: HTTPRequest) -> String? {
        if let header = request.fields["Authorization"] {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" { return String(parts[1]).trimmingCharacters(in: .whitespaces) }
        }
        if let offered = bearerSubprotocol(of: request) { return String(offered.dropFirst("bearer.".count)) }
        return QueryParameters(request.query).accessToken
    }

    /// The `bearer.<token>` entry of `Sec-WebSocket-Protocol`, if the client offered one.
    static func bearerSubprotocol(of request: HTTPRequest) -> String? {
        request.fields.values("Sec-WebSocket-Protocol")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("bearer.") }
    }

    static func unauthorized(_ message: String, invalid: Bool) -> APIError {
        let challenge = invalid ? "Bearer realm=\"statehouse\", error=\"invalid_token\"" : "Bearer realm=\"statehouse\""
        return APIError(status: 401, code: "unauthorized", message: message, fields: [.init(name: "WWW-Authenticate", value: challenge)])
    }

    static func forbidden(_ message: String) -> APIError {
        APIError(status: 403, code: "forbidden", message: message)
    }

    /// CORS (Fetch §3.2): refuses an unlisted `Origin` (403), answers preflights; returns false when it answered.
    func checkOrigin(_ request: HTTPRequest) -> Bool {
        currentOrigin = nil
        guard let cors = context.cors, let origin = request.fields["Origin"] else { return true }
        guard cors.allows(origin) else {
            send(error: APIError(
                status: 403, code: "origin_not_allowed",
                message: "Origin \(JSONText.quoted(origin)) is not allowed; add it to cors.allowedOrigins."),
                keepAlive: request.keepAlive, headOnly: request.method == "HEAD")
            return false
        }
        currentOrigin = origin
        guard request.method == "OPTIONS", request.fields["Access-Control-Request-Method"] != nil else { return true }
        send(HTTPResponse(status: 204, fields: [
            HTTPField(name: "Access-Control-Allow-Methods", value: CORSPolicy.allowMethods),
            HTTPField(name: "Access-Control-Allow-Headers", value: CORSPolicy.allowHeaders),
            HTTPField(name: "Access-Control-Max-Age", value: "600"),
        ]), keepAlive: request.keepAlive, headOnly: false)
        return false
    }

    /// The CORS fields of a response to an allowed origin.
    var corsFields: [HTTPField] {
        guard let origin = currentOrigin else { return [] }
        return [
            HTTPField(name: "Access-Control-Allow-Origin", value: origin),
            HTTPField(name: "Access-Control-Expose-Headers", value: CORSPolicy.exposeHeaders),
            HTTPField(name: "Vary", value: "Origin"),
        ]
    }
}
