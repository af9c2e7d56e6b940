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

    /// One unmasked text frame whose payload is `prefix` + `body` from `offset` on, sharing `body` when it is large
    /// (see ``OutboundFrame``).
    static func text(_ body: OutboundBuffer, prefix: [UInt8] = [], from offset: Int = 0) -> OutboundFrame {
        let payloadCount = prefix.count + body.count - offset
        let headerCount = WebSocketFrameEncoder.headerLength(payloadLength: payloadCount)
        let head = [UInt8](unsafeUninitializedCapacity: headerCount + prefix.count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            _ = WebSocketFrameEncoder.writeHeader(opcode: .text, payloadLength: payloadCount, fin: true, to: base)
            for (index, byte) in prefix.enumerated() { buffer[headerCount + index] = byte }
            initialized = headerCount + prefix.count
        }
        return OutboundFrame.framing(head, body, from: offset, [])
    }
}
