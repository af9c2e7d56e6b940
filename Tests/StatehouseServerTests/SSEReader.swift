import Foundation
import StatehouseTestClients

/// A minimal Server-Sent Events reader over a raw socket: parses the response head and the chunked body, and returns
/// events one at a time (comments skipped).
final class SSEReader {
    struct Event {
        var id = ""
        var event = ""
        var data = ""
    }

    private let socket: TestSocket
    private var buffer: [UInt8] = []
    private var body: [UInt8] = []

    /// The response head as received (status line and fields, CRLF-separated).
    private(set) var head = ""

    init(port: UInt16, path: String, lastEventID: String? = nil, fields: [(String, String)] = []) throws {
        socket = try TestSocket(port: port)
        let resume = lastEventID.map { "Last-Event-ID: \($0)\r\n" } ?? ""
        let extra = fields.map { "\($0.0): \($0.1)\r\n" }.joined()
        try socket.send("GET \(path) HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\(resume)\(extra)\r\n")
        let text = String(decoding: try readUntil(Array("\r\n\r\n".utf8)), as: UTF8.self)
        head = text
        guard text.hasPrefix("HTTP/1.1 200"), text.lowercased().contains("transfer-encoding: chunked"),
            text.lowercased().contains("content-type: text/event-stream")
        else { throw TestFailure("not an SSE response: \(text)") }
    }

    /// The next event (not a comment), within 5 s.
    func next() throws -> Event {
        while true {
            if let end = find(Array("\n\n".utf8), in: body) {
                let block = String(decoding: body[..<end], as: UTF8.self)
                body.removeFirst(end + 2)
                if block.hasPrefix(":") { continue }
                var event = Event()
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("id: ") { event.id = String(line.dropFirst(4)) }
                    if line.hasPrefix("event: ") { event.event = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { event.data = String(line.dropFirst(6)) }
                }
                return event
            }
            try readChunk()
        }
    }

    /// The value of the first response field named `name` (case-insensitive), or nil.
    func field(_ name: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == name.lowercased() {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    func close() { socket.close() }

    private func readChunk() throws {
        let sizeLine = try readUntil([13, 10])
        guard let size = Int(String(decoding: sizeLine.dropLast(2), as: UTF8.self), radix: 16) else {
            throw TestFailure("bad chunk size line")
        }
        while buffer.count < size + 2 { try fill() }
        body += buffer[..<size]
        buffer.removeFirst(size + 2)
    }

    private func readUntil(_ marker: [UInt8]) throws -> [UInt8] {
        while true {
            if let index = find(marker, in: buffer) {
                let taken = Array(buffer[..<(index + marker.count)])
                buffer.removeFirst(index + marker.count)
                return taken
            }
            try fill()
        }
    }

    private func fill() throws {
        let bytes = try socket.receive(deadline: .now + .seconds(5))
        if bytes.isEmpty { throw TestFailure("SSE stream closed") }
        buffer += bytes
    }

    private func find(_ marker: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= marker.count else { return nil }
        for index in 0...(bytes.count - marker.count) where Array(bytes[index..<(index + marker.count)]) == marker {
            return index
        }
        return nil
    }
}
