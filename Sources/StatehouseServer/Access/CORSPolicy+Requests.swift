import HTTP1

/// The policy applied to a request's `Origin` (Fetch §3.2).
extension CORSPolicy {
    /// What to do with a request under `policy` (nil: no `cors` configured).
    enum Verdict {
        /// Not cross-origin (no `Origin`), or no policy: answered as usual, without CORS fields.
        case sameOrigin
        /// An allowed origin: answered as usual, with ``responseFields(origin:)``.
        case allowed(origin: String)
        /// An allowed origin's preflight: answered with this 204 at once.
        case preflight(origin: String, HTTPResponse)
        /// An origin not listed: 403 `origin_not_allowed`.
        case refused(APIError)
    }

    static func verdict(_ policy: CORSPolicy?, _ request: HTTPRequest) -> Verdict {
        guard let policy, let origin = request.fields["Origin"] else { return .sameOrigin }
        guard policy.allows(origin) else { return .refused(.originNotAllowed(origin)) }
        guard request.method == "OPTIONS", request.fields["Access-Control-Request-Method"] != nil else {
            return .allowed(origin: origin)
        }
        return .preflight(origin: origin, HTTPResponse(status: 204, fields: [
            HTTPField(name: "Access-Control-Allow-Methods", value: allowMethods),
            HTTPField(name: "Access-Control-Allow-Headers", value: allowHeaders),
            HTTPField(name: "Access-Control-Max-Age", value: "600"),
        ]))
    }

    /// The CORS fields of a response to an allowed origin.
    static func responseFields(origin: String) -> [HTTPField] {
        [
            HTTPField(name: "Access-Control-Allow-Origin", value: origin),
            HTTPField(name: "Access-Control-Expose-Headers", value: exposeHeaders),
            HTTPField(name: "Vary", value: "Origin"),
        ]
    }
}
