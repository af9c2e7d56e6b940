import UVLoop

/// One message's bytes on the wire, as shared write buffers written in order: the whole framed message in `head`,
/// or, for a large message, a small `head`, the message's own `body` buffer and a small `tail`, so a big state is
/// never copied into its framings (a WebSocket frame, an SSE event, a `/ws` frame tagged with `"sub"`).
struct OutboundFrame: Sendable {
    let head: OutboundBuffer
    var body: OutboundBuffer?
    var tail: OutboundBuffer?

    /// A body of at least this many bytes (64 KiB) is written from its own buffer rather than copied into the
    /// framing: above it the copy costs more than the extra write buffers.
    static let sharedBodyBytes = 64 * 1024

    /// Queues the bytes on `connection`.
    func write(to connection: TCPConnection) {
        connection.write(head)
        if let body { connection.write(body) }
        if let tail { connection.write(tail) }
    }

    /// The framing of `body` between `prefix` and `suffix`: one buffer when `body` is small, else three.
    static func framing(_ prefix: [UInt8], _ body: OutboundBuffer, from offset: Int = 0, _ suffix: [UInt8]) -> OutboundFrame {
        let bodyCount = body.count - offset
        guard bodyCount >= sharedBodyBytes else {
            return OutboundFrame(head: OutboundBuffer(count: prefix.count + bodyCount + suffix.count) { base in
                prefix.withUnsafeBytes { if let from = $0.baseAddress { base.copyMemory(from: from, byteCount: $0.count) } }
                (base + prefix.count).copyMemory(from: body.base + offset, byteCount: bodyCount)
                suffix.withUnsafeBytes { if let from = $0.baseAddress { (base + prefix.count + bodyCount).copyMemory(from: from, byteCount: $0.count) } }
            })
        }
        return OutboundFrame(
            head: OutboundBuffer(prefix), body: offset == 0 ? body : OutboundBuffer(sharing: body, from: offset),
            tail: suffix.isEmpty ? nil : OutboundBuffer(suffix))
    }

    /// All the bytes, joined (tests).
    var bytes: [UInt8] { head.bytes + (body?.bytes ?? []) + (tail?.bytes ?? []) }
}
