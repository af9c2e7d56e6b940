import HTTP1
import WebSocket

extension HTTPSession {
    /// Completes an RFC 6455 opening handshake (§4.2.2) and hands the socket to a ``WebSocketSession``; anything
    /// else is answered as plain HTTP and the connection closed (the bytes after an upgrade request are not HTTP).
    func upgrade(_ request: HTTPRequest, leftover: [UInt8]) {
        let home: (any HostedStore)?
        switch try? Route.match(method: request.method, path: request.path) {
        case .webSocket(let name)?:
            guard let store = store(named: name, request.closing) else { return }
            home = store
        case .multiplexed?:
            home = nil
        default:
            var plain = request
            plain.keepAlive = false
            return dispatch(plain)
        }
        if let error = Self.handshakeError(request) {
            return send(error: error, keepAlive: false, headOnly: false)
        }
        var stream: StreamRequest?
        if home != nil {
            do {
                stream = try StreamRequest(QueryParameters(request.query))
            } catch {
                return send(error: error, keepAlive: false, headOnly: false)
            }
        }
        if context.isShuttingDown {
            let error = APIError(status: 503, code: "shutting_down", message: "The server is shutting down; reconnect later.")
            return send(error: error, keepAlive: false, headOnly: false)
        }
        let key = request.fields["Sec-WebSocket-Key"] ?? ""
        let head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\n\r\n"
        connection.write(Array(head.utf8))
        Log.shared.debug("ws \(home?.name ?? "/ws") opened")
        state = .upgraded
        let session = WebSocketSession(connection: connection, context: context, home: home)
        context.replace(self, with: session)
        session.start(leftover: leftover, channel: stream?.channel, resume: stream?.resume)
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
