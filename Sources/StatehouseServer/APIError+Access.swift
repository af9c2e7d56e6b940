import HTTP1

/// Errors of access: tokens (RFC 6750) and origins (Fetch §3.2).
extension APIError {
    /// 401 with the `WWW-Authenticate` challenge (`error="invalid_token"` for an unknown token; RFC 6750 §3).
    static func unauthorized(_ message: String, invalid: Bool) -> APIError {
        let challenge = invalid ? "Bearer realm=\"statehouse\", error=\"invalid_token\"" : "Bearer realm=\"statehouse\""
        return APIError(status: 401, .unauthorized, message: message, fields: [HTTPField(name: "WWW-Authenticate", value: challenge)])
    }

    static let missingToken = unauthorized("This endpoint needs a token: send Authorization: Bearer <token>.", invalid: false)
    static let unknownToken = unauthorized("The token is not known; check it or ask for a new one.", invalid: true)

    /// 403: the token lacks `scope` on `what` (e.g. `store "counter"`, or `stores`).
    static func forbidden(_ scope: AccessPolicy.Scope, _ what: String) -> APIError {
        guard scope != .metrics else {
            return APIError(
                status: 403, .forbidden, message: "This token lacks the metrics scope; use a token whose scopes include \"metrics\".")
        }
        return APIError(status: 403, .forbidden, message: "This token may not \(scope.rawValue) \(what).")
    }

    /// 403: the token lacks `scope` on the store `name`.
    static func forbidden(_ scope: AccessPolicy.Scope, store name: String) -> APIError {
        forbidden(scope, "store \(JSONText.quoted(name))")
    }

    static func originNotAllowed(_ origin: String) -> APIError {
        APIError(
            status: 403, .originNotAllowed,
            message: "Origin \(JSONText.quoted(origin)) is not allowed; add it to cors.allowedOrigins.")
    }
}
