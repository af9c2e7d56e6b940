/// The head of a response read by ``HTTPResponseParser``: status line and fields (RFC 9112 §4, RFC 9110 §15).
public struct HTTPResponseHead: Sendable, Equatable {
    /// The status code, 100–999 (RFC 9110 §15; llhttp accepts three digits).
    public var status: Int
    /// The reason phrase as sent, may be empty (RFC 9112 §4: clients should ignore it).
    public var reason: String
    /// The HTTP version, e.g. 1 and 1 for HTTP/1.1.
    public var versionMajor: Int
    public var versionMinor: Int
    /// The header fields in arrival order.
    public var fields: HTTPFields

    /// Creates a response head.
    public init(status: Int, reason: String, versionMajor: Int = 1, versionMinor: Int = 1, fields: HTTPFields) {
        self.status = status
        self.reason = reason
        self.versionMajor = versionMajor
        self.versionMinor = versionMinor
        self.fields = fields
    }
}

/// What ``HTTPResponseParser`` reads: the first final response, or why it could not.
public enum HTTPResponseParseResult: Sendable, Equatable {
    /// A `101 Switching Protocols` head (RFC 9110 §15.2.2). `leftover`: the bytes of the feed after the head; they,
    /// and all later bytes, belong to the new protocol (e.g. the first WebSocket frames).
    case switchingProtocols(HTTPResponseHead, leftover: [UInt8])
    /// A complete response other than 1xx: its head and its body (de-chunked; by `Content-Length`, chunked coding or,
    /// for neither, up to the end of the connection, RFC 9112 §6.3).
    case response(HTTPResponseHead, body: [UInt8])
    /// The bytes are not a valid HTTP/1.x response, exceed a limit, or the connection ended first.
    case failure(HTTPResponseParseError)
}

/// Why a response could not be read: one sentence.
public struct HTTPResponseParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, e.g. "The response body exceeds the limit of 65536 bytes."
    public var message: String

    /// Creates an error.
    public init(message: String) { self.message = message }

    public var description: String { message }
}
