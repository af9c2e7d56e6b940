/// A message or control frame received by `TestWebSocketClient` (RFC 6455 §5.5, §5.6).
public enum TestWebSocketMessage: Equatable, Sendable {
    /// A complete text message (fragments joined), valid UTF-8.
    case text(String)
    /// A complete binary message (fragments joined).
    case binary([UInt8])
    /// A ping control frame with its application data (0...125 bytes).
    case ping([UInt8])
    /// A pong control frame with its application data (0...125 bytes).
    case pong([UInt8])
    /// A close frame (§5.5.1): the status code if the payload had one (§7.4), and the UTF-8 reason.
    case close(code: UInt16?, reason: String)
}

extension TestWebSocketMessage: CustomStringConvertible {
    /// A short form for failure messages, e.g. `text("{...}")` or `close(1001, "going away")`.
    public var description: String {
        switch self {
        case .text(let text): "text(\(text.debugDescription))"
        case .binary(let bytes): "binary(\(bytes.count) bytes)"
        case .ping(let bytes): "ping(\(bytes.count) bytes)"
        case .pong(let bytes): "pong(\(bytes.count) bytes)"
        case .close(let code, let reason): "close(\(code.map(String.init) ?? "no code"), \(reason.debugDescription))"
        }
    }
}
