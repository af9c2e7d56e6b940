/// One complete HTTP/1.x request message as the parser delivers it (RFC 9112 §2–§3, §6).
public struct HTTPRequest: Sendable, Equatable {
    /// The method as llhttp names it: `"GET"`, `"POST"`, `"DELETE"`, … (RFC 9110 §9).
    public var method: String
    /// The request-target exactly as received, e.g. `"/stores/counter?since=3"` (RFC 9112 §3.2).
    public var target: String
    /// The target up to (not including) the first `?`; not percent-decoded.
    public var path: String
    /// The part of the target after the first `?`; `nil` when the target has no `?`.
    public var query: String?
    /// The major protocol version: always 1 for a delivered request (other majors fail with 505).
    public var versionMajor: Int
    /// The minor protocol version: 0 or 1.
    public var versionMinor: Int
    /// The header fields in arrival order (trailer fields of a chunked body are not included).
    public var fields: HTTPFields
    /// The message body in bytes, with chunked transfer coding removed (RFC 9112 §7.1).
    public var body: [UInt8]
    /// Whether the connection may carry another request after this one: llhttp's
    /// `llhttp_should_keep_alive` at message complete (RFC 9112 §9.3; HTTP/1.0 needs `Connection: keep-alive`).
    public var keepAlive: Bool
    /// Whether the request asks to switch protocols (`Connection: upgrade` plus `Upgrade`, or `CONNECT`;
    /// RFC 9110 §7.8). Such requests arrive as ``HTTPParseEvent/upgrade(_:leftover:)``.
    public var isUpgrade: Bool
}

// The initializers are in extensions so that the struct keeps its memberwise initializer: built through that,
// a request is assembled in place (an initializer that assigns each property makes Swift 6.3 build the value on
// the stack, then copy and destroy it whole).
extension HTTPRequest {
    /// Creates a request; ``path`` and ``query`` are derived from `target`.
    ///
    /// - Parameters:
    ///   - method: The method name, e.g. `"GET"`.
    ///   - target: The request-target as sent on the wire.
    ///   - versionMajor: The major version (1).
    ///   - versionMinor: The minor version (0 or 1).
    ///   - fields: The header fields.
    ///   - body: The decoded body bytes.
    ///   - keepAlive: Whether the connection stays open after the response.
    ///   - isUpgrade: Whether the request asks for a protocol switch.
    public init(
        method: String,
        target: String,
        versionMajor: Int = 1,
        versionMinor: Int = 1,
        fields: HTTPFields = HTTPFields(),
        body: [UInt8] = [],
        keepAlive: Bool = true,
        isUpgrade: Bool = false
    ) {
        let derived = RequestTarget(target)
        self.init(
            method: method, target: target, path: derived.path, query: derived.query, versionMajor: versionMajor,
            versionMinor: versionMinor, fields: fields, body: body, keepAlive: keepAlive, isUpgrade: isUpgrade)
    }

    /// Creates the head of a parsed request, with no body yet.
    init(method: String, target: RequestTarget, versionMajor: Int, versionMinor: Int, fields: HTTPFields) {
        self.init(
            method: method, target: target.target, path: target.path, query: target.query,
            versionMajor: versionMajor, versionMinor: versionMinor, fields: fields, body: [], keepAlive: true,
            isUpgrade: false)
    }
}
