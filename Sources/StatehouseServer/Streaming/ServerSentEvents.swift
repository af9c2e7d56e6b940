import HTTP1
import UVLoop

/// Server-Sent Events framing (HTML Living Standard §9.2, `text/event-stream`) inside HTTP/1.1 chunked transfer coding
/// (RFC 9112 §7.1).
enum ServerSentEvents {
    /// The response head of a stream (`200`, `text/event-stream`, `Cache-Control: no-cache`, `fields`, chunked),
    /// ending with its empty line; `closing` adds `Connection: close` (a HEAD answered on a closing connection).
    static func responseHead(fields: [HTTPField], closing: Bool) -> [UInt8] {
        let extra = fields.map { "\($0.name): \($0.value)\r\n" }.joined()
        return Array(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n" + extra
            + "Transfer-Encoding: chunked\r\n" + (closing ? "Connection: close\r\n" : "") + "\r\n").utf8)
    }

    /// One event as one chunk: `id:` (when given), `event:`, `data:` lines and a blank line, with `body` (JSON text,
    /// which has no raw newline, so one line) as the data, shared when it is large (see ``OutboundFrame``).
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
