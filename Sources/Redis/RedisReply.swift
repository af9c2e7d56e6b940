/// One RESP2 reply.
///
/// The cases are RESP2's types: a simple string (`+OK`), an error (`-ERR ...`), an integer (`:1`), a bulk string
/// (`$3\r\nfoo`, binary safe), the null bulk string or null array (`$-1`, `*-1`), and an array of replies
/// (<https://redis.io/docs/latest/develop/reference/protocol-spec/>).
///
/// ## Thread safety
/// An immutable value (`Sendable`).
public enum RedisReply: Sendable, Equatable {
    /// A simple string, e.g. `OK`, `PONG`, `QUEUED`.
    case status(String)
    /// An error reply's text, its prefix included (e.g. `ERR unknown command 'NOPE'...`, `WRONGTYPE ...`).
    case error(String)
    /// A signed 64-bit integer.
    case integer(Int64)
    /// A bulk string's bytes, exactly as stored (may hold NUL, CR, LF, invalid UTF-8).
    case bulk([UInt8])
    /// The null bulk string or null array (a missing key for `GET`, a timed-out `BLPOP`).
    case null
    /// An array of replies (`MGET`, `LRANGE`, a pub/sub message).
    case array([RedisReply])

    /// A status's text, or a bulk string's bytes when they are valid UTF-8; nil otherwise (invalid UTF-8 included:
    /// use ``bytes`` for binary values).
    public var string: String? {
        switch self {
        case .status(let text): text
        case .bulk(let bytes): String(validating: bytes, as: UTF8.self)
        default: nil
        }
    }

    /// An integer, or a bulk string or status whose text is a decimal `Int64` (e.g. `GET` of a counter); else nil.
    public var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .bulk, .status: string.flatMap { Int64($0) }
        default: nil
        }
    }

    /// The elements of an array; nil for any other reply (``null`` included).
    public var array: [RedisReply]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// A bulk string's bytes, or a status's UTF-8 bytes; nil otherwise.
    public var bytes: [UInt8]? {
        switch self {
        case .bulk(let bytes): bytes
        case .status(let text): Array(text.utf8)
        default: nil
        }
    }

    /// Whether this is an ``error(_:)`` reply.
    public var isError: Bool {
        if case .error = self { return true }
        return false
    }
}

extension RedisReply: CustomStringConvertible {
    /// A one-line rendering for logs and test failures: `+OK`, `-ERR ...`, `:42`, `"text"` (bulk as UTF-8, or
    /// `<N bytes>` when it is not), `(nil)`, `[a, b]`.
    public var description: String {
        switch self {
        case .status(let text): "+\(text)"
        case .error(let text): "-\(text)"
        case .integer(let value): ":\(value)"
        case .bulk(let bytes): String(validating: bytes, as: UTF8.self).map { "\"\($0)\"" } ?? "<\(bytes.count) bytes>"
        case .null: "(nil)"
        case .array(let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
        }
    }
}
