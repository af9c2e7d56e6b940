import UVLoop
import WebSocket

/// Server frames as shareable write buffers.
enum WebSocketFrames {
    /// One unmasked, unfragmented text frame (RFC 6455 §5.2, §5.6) holding `payload`.
    static func text(_ payload: [UInt8]) -> OutboundBuffer {
        let header = WebSocketFrameEncoder.headerLength(payloadLength: payload.count)
        return OutboundBuffer(count: header + payload.count) { base in
            _ = WebSocketFrameEncoder.writeHeader(opcode: .text, payloadLength: payload.count, fin: true, to: base)
            payload.withUnsafeBytes { source in
                if let from = source.baseAddress { (base + header).copyMemory(from: from, byteCount: source.count) }
            }
        }
    }
}
