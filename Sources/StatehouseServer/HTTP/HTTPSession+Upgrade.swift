import HTTP1
import WebSocket

extension HTTPSession {
    /// Completes an RFC 6455 opening handshake (§4.2.2) and hands the socket to a ``WebSocketSession``; anything
    /// else is answered as plain HTTP and the connection closed (the bytes after an upgrade request are not HTTP).
    func upgrade(_ request: HTTPRequest, leftover: [UInt8]) {
        guard case .webSocket(let name)? = try? Route.match(method: request.method, path: request.path) else {
            var plain = request
            plain.keepAlive = false
            dispatch(plain)
            return
        }
        guard let store = store(named: name, request.closing) else { return }
        if let error = Self.handshakeError(request) {
            send(error: error, keepAlive: false, headOnly: false)
            return
        }
        let stream: StreamRequest
        do {
            stream = try StreamRequest(QueryParameters(request.query))
        } catch {
            send(error: error, keepAlive: false, headOnly: false)
            return
        }
        if context.isShuttingDown {
            let error = APIError(status: 503, code: "shutting_down", message: "The server is shutting down; reconnect later.")
            send(error: error, keepAlive: false, headOnly: false)
            return
        }
        let key = request.fields["Sec-WebSocket-Key"] ?? ""
        let head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\n\r\n"
        connection.write(Array(head.utf8))
        Log.shared.debug("ws \(name) opened")
        state = .upgraded
        let session = WebSocketSession(connection: connection, store: store, context: context, channel: stream.channel)
        context.replace(self, with: session)
        session.start(leftover: leftover, resume: stream.resume)
    }
}

extension HTTPRequest {
    /// The same request, marked so its answer closes the connection.
    var closing: HTTPRequest {
        var copy = self
        copy.keepAlive = false
        return copy
    }
}
