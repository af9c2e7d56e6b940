import Foundation
import UVLoop
import WebSocket

/// A WebSocket "server" on the client's loop that answers the opening handshake correctly (RFC 6455 §4.2.2), then
/// does what the test scripts: for behaviour the real server never shows (EOF without a Close, binary messages,
/// silence after a ping).
enum ScriptedServer {
    /// Listens on 127.0.0.1:0; on the first bytes of a connection answers 101 followed by `afterHead` in the same
    /// write, then calls `then` with the connection (later reads go to `onFrames`). Returns the port.
    static func listen(
        on loop: EventLoop, afterHead: [UInt8] = [], onFrames: @escaping @Sendable ([UInt8]) -> Void = { _ in },
        then: @escaping @Sendable (TCPConnection) -> Void = { _ in }
    ) throws -> Int {
        try loop.submitAndWait {
            try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { connection in
                var answered = false
                connection.onRead = { bytes in
                    guard !answered else { return onFrames(Array(bytes)) }
                    answered = true
                    let request = String(decoding: bytes, as: UTF8.self)
                    let key = request.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
                        .map { $0.dropFirst("sec-websocket-key:".count).trimmingCharacters(in: .whitespaces) } ?? ""
                    let head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\n\r\n"
                    connection.write(Array(head.utf8) + afterHead)
                    then(connection)
                }
                connection.onEnd = { _ in connection.close() }
                connection.startReading()
            }.port
        }
    }

    /// An unmasked server frame (§5.2) with a payload under 126 bytes.
    static func frame(opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        precondition(payload.count < 126)
        return [0x80 | opcode, UInt8(payload.count)] + payload
    }
}
