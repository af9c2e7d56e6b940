import UVLoop

/// Server-Sent Events framing (HTML Living Standard §9.2, `text/event-stream`) inside HTTP/1.1 chunked transfer coding
/// (RFC 9112 §7.1).
enum ServerSentEvents {
    /// One event as one chunk: `id:` (when given), `event:`, `data:` lines and a blank line. JSON text has no raw
    /// newline, so `data` is one line.
    static func chunk(id: String?, event: String, data: [UInt8]) -> OutboundBuffer {
        var text: [UInt8] = []
        if let id { text += Array("id: \(id)\n".utf8) }
        text += Array("event: \(event)\ndata: ".utf8)
        text += data
        text += Array("\n\n".utf8)
        return chunked(text)
    }

    /// One event as one chunk, like ``chunk(id:event:data:)``, with `body` as the data, shared when it is large (see
    /// ``OutboundFrame``).
    static func chunk(id: String?, event: String, body: OutboundBuffer) -> OutboundFrame {
        var text: [UInt8] = []
        if let id { text += Array("id: \(id)\n".utf8) }
        text += Array("event: \(event)\ndata: ".utf8)
        let size = text.count + body.count + 2
        return OutboundFrame.framing(Array(String(size, radix: 16).utf8) + [13, 10] + text, body, [10, 10, 13, 10])
    }

    /// A comment line (heartbeat) as one chunk.
    static func comment(_ text: String) -> OutboundBuffer { chunked(Array(": \(text)\n\n".utf8)) }

    /// `size CRLF bytes CRLF`.
    static func chunked(_ bytes: [UInt8]) -> OutboundBuffer {
        OutboundBuffer(Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10])
    }
}
