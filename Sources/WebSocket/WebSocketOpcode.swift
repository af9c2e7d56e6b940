/// The 4-bit opcode in the first byte of a frame (RFC 6455 §5.2, §11.8).
///
/// Opcodes 0x3–0x7 and 0xB–0xF are reserved; they have no case here, so `WebSocketOpcode(rawValue:)`
/// returns `nil` for them and the reader fails the connection with close code 1002.
public enum WebSocketOpcode: UInt8, Sendable {
    /// 0x0: a later fragment of a fragmented text or binary message (§5.4).
    case continuation = 0x0
    /// 0x1: the first (or only) frame of a text message; the payload is UTF-8 (§5.6).
    case text = 0x1
    /// 0x2: the first (or only) frame of a binary message (§5.6).
    case binary = 0x2
    /// 0x8: a Close control frame (§5.5.1).
    case close = 0x8
    /// 0x9: a Ping control frame (§5.5.2).
    case ping = 0x9
    /// 0xA: a Pong control frame (§5.5.3).
    case pong = 0xA

    /// Whether this is a control opcode (most significant opcode bit set: close, ping, pong; §5.5).
    /// Control frames carry at most 125 payload bytes and are never fragmented.
    public var isControl: Bool { rawValue & 0x8 != 0 }
}
