/// A decoded frame header (RFC 6455 §5.2).
struct WebSocketFrameHeader: Sendable {
    /// The largest header: 2 bytes + 8-byte extended length + 4-byte masking key.
    static let maxLength = 14

    var fin: Bool
    var opcode: WebSocketOpcode
    /// Payload length in bytes (fits in 63 bits).
    var payloadLength: Int
    /// The masking key in wire order, nil for an unmasked frame.
    var maskingKey: (UInt8, UInt8, UInt8, UInt8)?

    /// Total header length in bytes implied by the first two header bytes (2, 4, 6, 8, 10 or 14).
    static func length(secondByte: UInt8) -> Int {
        let masked = secondByte & 0x80 != 0 ? 4 : 0
        switch secondByte & 0x7F {
        case 126: return 4 + masked
        case 127: return 10 + masked
        default: return 2 + masked
        }
    }

    /// Decodes a complete header (`bytes.count == length(secondByte: bytes[1])`) whose first two bytes have
    /// already been checked (opcode known).
    /// - Throws: 1002 when a 64-bit length has its most significant bit set (§5.2); 1009 when the length does
    ///   not fit in `Int` (32-bit platforms only).
    static func decode(_ bytes: [UInt8]) throws(WebSocketFailure) -> WebSocketFrameHeader {
        let fin = bytes[0] & 0x80 != 0
        let opcode = WebSocketOpcode(rawValue: bytes[0] & 0x0F) ?? .continuation
        let masked = bytes[1] & 0x80 != 0
        var length: UInt64 = UInt64(bytes[1] & 0x7F)
        var next = 2
        if length == 126 {
            length = UInt64(bytes[2]) << 8 | UInt64(bytes[3])
            next = 4
        } else if length == 127 {
            length = 0
            for index in 2..<10 { length = length << 8 | UInt64(bytes[index]) }
            guard length & (1 << 63) == 0 else {
                throw WebSocketReader.protocolError("64-bit payload length has its most significant bit set.")
            }
            next = 10
        }
        guard let payloadLength = Int(exactly: length) else {  // only on 32-bit platforms
            throw WebSocketFailure(closeCode: .messageTooBig, reason: "Frame payload length exceeds this platform.")
        }
        let key = masked ? (bytes[next], bytes[next + 1], bytes[next + 2], bytes[next + 3]) : nil
        return WebSocketFrameHeader(fin: fin, opcode: opcode, payloadLength: payloadLength, maskingKey: key)
    }
}
