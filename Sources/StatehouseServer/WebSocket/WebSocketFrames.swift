import UVLoop
import WebSocket

/// Server frames as shareable write buffers: a broadcast message framed once for every connection (unmasked server
/// frames are the same for all; each connection writes it only while `WebSocketConnection.mayWriteData`).
enum WebSocketFrames {
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
