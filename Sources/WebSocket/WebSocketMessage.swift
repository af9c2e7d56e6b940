/// One complete message or control frame delivered by `WebSocketReader` (RFC 6455 §5.4–§5.6).
public enum WebSocketMessage: Sendable, Equatable {
    /// A text message, reassembled from its fragments and checked to be valid UTF-8 (§5.6, §8.1).
    case text(String)
    /// A binary message, reassembled from its fragments (§5.6).
    case binary([UInt8])
    /// A Ping control frame with its application data (0–125 bytes) as received (§5.5.2).
    /// The caller answers it with a Pong carrying the same bytes.
    case ping([UInt8])
    /// A Pong control frame with its application data (0–125 bytes) as received (§5.5.3).
    case pong([UInt8])
    /// A Close control frame (§5.5.1). `code` is `nil` when the payload was empty; otherwise it is a
    /// sendable close code (§7.4) and `reason` is the valid UTF-8 text that followed it (may be empty).
    case close(code: UInt16?, reason: String)
}

/// A protocol violation found by `WebSocketReader`: the connection must be failed (RFC 6455 §7.1.7)
/// by sending a Close frame with `closeCode` and then closing.
public struct WebSocketFailure: Error, Sendable, Equatable {
    /// The close code to send: 1002 (protocol error), 1007 (invalid UTF-8) or 1009 (too big).
    public var closeCode: WebSocketCloseCode
    /// A short English sentence describing the violation, fit for a Close reason (under 123 bytes).
    public var reason: String

    /// Creates a failure with the code to send and a short reason.
    public init(closeCode: WebSocketCloseCode, reason: String) {
        self.closeCode = closeCode
        self.reason = reason
    }
}

/// Which end of the connection a `WebSocketReader` serves; it decides the masking rule (RFC 6455 §5.1).
public enum WebSocketRole: Sendable {
    /// We are the server: the peer is a client, and every frame it sends MUST be masked.
    case server
    /// We are the client: the peer is a server, and its frames MUST NOT be masked.
    case client
}

/// What one `WebSocketReader.read(_:)` call produced.
public struct WebSocketReadResult: Sendable, Equatable {
    /// Messages completed by the bytes of this call, in wire order (control frames included).
    public var messages: [WebSocketMessage]
    /// The first protocol violation, if any. Messages before it are still in `messages`.
    public var failure: WebSocketFailure?

    /// Creates a result.
    public init(messages: [WebSocketMessage] = [], failure: WebSocketFailure? = nil) {
        self.messages = messages
        self.failure = failure
    }
}
