/// Which browser origins may use the API (configuration `cors.allowedOrigins`; Fetch standard §3.2).
///
/// With a list set: preflights (`OPTIONS` with `Access-Control-Request-Method`) from a listed origin are answered, a
/// listed origin's responses carry `Access-Control-Allow-Origin`, and a request or WebSocket handshake whose `Origin`
/// is not listed is refused with 403 `origin_not_allowed`. `"*"` allows every origin. Requests without `Origin`
/// (curl, servers) are not affected.
public struct CORSPolicy: Sendable, Equatable {
    public var allowedOrigins: [String]

    public init(allowedOrigins: [String]) {
        self.allowedOrigins = allowedOrigins
    }

    public func allows(_ origin: String) -> Bool {
        allowedOrigins.contains("*") || allowedOrigins.contains(origin)
    }

    static let allowMethods = "GET, HEAD, POST, PUT, DELETE"
    static let allowHeaders = "Authorization, Content-Type, Idempotency-Key, Last-Event-ID, If-None-Match, X-Request-Id"
    static let exposeHeaders = "ETag, Idempotent-Replayed, Location, Retry-After, WWW-Authenticate, X-Request-Id"
}
