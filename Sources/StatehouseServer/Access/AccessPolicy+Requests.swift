import HTTP1

/// The policy applied to a request: the scope its route needs, the token it presents, and the verdict.
extension AccessPolicy {
    /// The scope a route needs, on which store (nil: any store the token covers, checked later per store); nil for
    /// a route open to all (`/healthz`, `/client/statehouse.js`, the inspector's static files).
    static func requirement(_ route: Route) -> (scope: Scope, store: String?)? {
        switch route {
        case .health, .clientScript, .inspector: nil
        case .listStores, .multiplexed: (.read, nil)
        case .readStore(let name), .events(let name), .webSocket(let name), .log(let name): (.read, name)
        case .postAction(let name), .reset(let name): (.write, name)
        case .putStore(let name), .deleteStore(let name): (.admin, name)
        // The overview shows every store's figures (as /metrics does) and every connection's peer address.
        case .metrics, .inspectorOverview: (.metrics, nil)
        }
    }

    /// The access `request` has to `route` under `policy` (nil: no `auth` configured, everything is open).
    ///
    /// - Returns: The access, or the error to answer: 401 `unauthorized` (no token, or an unknown one), 403
    ///   `forbidden` (the token lacks the scope).
    static func check(_ policy: AccessPolicy?, _ request: HTTPRequest, _ route: Route) -> Result<Access, APIError> {
        guard let policy, let needed = requirement(route) else { return .success(.open) }
        guard let token = token(of: request) else { return .failure(.missingToken) }
        guard let grant = policy.grant(for: token) else { return .failure(.unknownToken) }
        let allowed = needed.store.map { grant.allows(needed.scope, on: $0) } ?? grant.scopes.contains(needed.scope)
        guard allowed else {
            return .failure(.forbidden(needed.scope, needed.store.map { "store \(JSONText.quoted($0))" } ?? "stores"))
        }
        return .success(.granted(grant))
    }

    /// The bearer token: `Authorization: Bearer` (RFC 6750 §2.1), else (for browsers' WebSocket and EventSource,
    /// which cannot set headers) `Sec-WebSocket-Protocol: bearer.<token>` or `?access_token=` (§2.3).
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
}
