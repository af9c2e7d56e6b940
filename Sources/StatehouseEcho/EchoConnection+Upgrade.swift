import HTTP1
import WebSocket

extension EchoConnection {
    /// Completes the opening handshake (RFC 6455 §4.2.2) for any GET with valid fields, whatever its path, then
    /// reads `leftover` (frames sent right behind the request) as WebSocket input. An invalid handshake is answered
    /// with the status `WebSocketHandshake.validate` chose (400 or 426) and closed.
    func upgrade(_ request: HTTPRequest, leftover: [UInt8]) {
        connection.loop.assertInLoop()
        let fields = request.fields.map { (name: $0.name, value: $0.value) }
        switch WebSocketHandshake.validate(method: request.method, fields: fields) {
        case .failure(let error):
            reject(
                status: error.status, message: error.message,
                fields: error.extraFields.map { HTTPField(name: $0.name, value: $0.value) })
        case .success(let accept):
            let head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: \(accept.acceptValue)\r\n\r\n"
            connection.write(Array(head.utf8))
            phase = .webSocket
            if !leftover.isEmpty { leftover.withUnsafeBytes { receivedFrames($0) } }
        }
    }
}
