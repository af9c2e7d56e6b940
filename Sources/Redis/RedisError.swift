/// A failed Redis operation: what kind of failure, and a sentence saying what happened.
///
/// A Redis *error reply* (`-ERR ...`, `-WRONGTYPE ...`) is not a `RedisError`: commands return it as
/// ``RedisReply/error(_:)``. A `RedisError` means the operation could not be carried out on the connection.
///
/// ## Thread safety
/// An immutable value (`Sendable`).
public struct RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The failure's category.
    public enum Kind: Sendable, Equatable {
        /// ``RedisEndpoint/init(url:)`` refused the text; the message says the accepted forms.
        case invalidURL
        /// Connecting failed (refused, no such socket, connect timeout, name resolution), or `SELECT` of the
        /// endpoint's database was refused.
        case connection
        /// A read or write on an established connection failed (e.g. `ECONNRESET`, `EPIPE`); the connection is broken.
        case io
        /// No reply within the command timeout (`commandTimeoutMs`, `SO_RCVTIMEO`/`SO_SNDTIMEO`); the connection is
        /// broken, because the late reply would answer the next command.
        case timeout
        /// The server's bytes are not RESP2; the connection is broken.
        case `protocol`
        /// The server closed the connection (EOF), or the connection was closed with ``RedisConnection/close()``.
        case closed
    }

    /// The failure's category.
    public let kind: Kind
    /// What happened, as a sentence (hiredis's text where it has one, e.g. `"Connection refused"`).
    public let message: String

    /// An error of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// `"redis <kind>: <message>"`, e.g. `"redis connection: connect to unix:///tmp/r.sock: No such file or
    /// directory"`.
    public var description: String { "redis \(kind): \(message)" }
}
