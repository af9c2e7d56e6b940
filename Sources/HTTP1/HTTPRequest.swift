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
        self.method = method
        self.target = target
        let origin = Self.originForm(of: target)
        if let mark = origin.utf8.firstIndex(of: UInt8(ascii: "?")) {
            path = String(origin[..<mark])
            query = String(origin[origin.index(after: mark)...])
        } else {
            path = String(origin)
            query = nil
        }
        self.versionMajor = versionMajor
        self.versionMinor = versionMinor
        self.fields = fields
        self.body = body
        self.keepAlive = keepAlive
        self.isUpgrade = isUpgrade
    }

    /// The path-and-query part of a request-target: absolute-form (`http://host/path?q`, RFC 9112 §3.2.2), which a
    /// server must accept, is reduced to `/path?q`; origin-form is returned as is.
    static func originForm(of target: String) -> Substring {
        let lowered = target.prefix(8).lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return Substring(target) }
        let afterScheme = target[target.index(target.startIndex, offsetBy: lowered.hasPrefix("http://") ? 7 : 8)...]
        guard let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        return afterScheme[slash] == "?" ? Substring("/" + afterScheme[slash...]) : afterScheme[slash...]
    }
}
