import HTTP1
import UVLoop
import WebSocket

/// One accepted connection of the echo server: HTTP/1.1 until a valid opening handshake, then WebSocket.
///
/// Lifecycle (explicit, see ``Phase``):
/// ```
/// http ──valid handshake (101)──▶ webSocket ──the machine closes the socket (peer Close echoed, protocol error,
///   │                                          peer EOF; see `WebSocketConnection`)──────────────────────────▶ closed
///   └──plain request, bad handshake or unparsable bytes (4xx, connection closed)────────────────────────────▶ closed
/// ```
/// In `webSocket`, every RFC 6455 rule is the `WebSocketConnection` machine's (server role, no keep-alive).
/// The connection and this object reference each other through the connection's callbacks; the cycle ends when the
/// socket closes, since `TCPConnection` drops its callbacks then.
///
/// ## Thread safety
/// Loop-confined: created, called and called back on the loop thread only.
final class EchoConnection {
    enum Phase {
        /// Reading HTTP/1.1 requests until the upgrade.
        case http
        /// Echoing WebSocket messages (the machine's lifecycle runs inside this phase).
        case webSocket
        /// A Close was sent (or the connection failed); input is ignored while TCP closes.
        case closed
    }

    let connection: TCPConnection
    let parser = HTTPRequestParser(limits: HTTPParserLimits(maxHeaderBytes: 16 << 10, maxBodyBytes: 64 << 10))
    /// The RFC 6455 state machine, the same the Statehouse server runs.
    var machine: WebSocketConnection
    var phase = Phase.http

    /// Wraps an accepted connection; `maxMessageBytes` bounds each WebSocket message (RFC 6455 §7.4.1, 1009).
    init(connection: TCPConnection, maxMessageBytes: Int) {
        connection.loop.assertInLoop()
        self.connection = connection
        machine = WebSocketConnection(role: .server, configuration: .init(maxMessageBytes: maxMessageBytes))
    }

    /// Installs the callbacks and starts reading.
    func start() {
        connection.loop.assertInLoop()
        connection.onRead = { [self] bytes in received(bytes) }
        connection.onEnd = { [self] _ in peerEnded() }
        connection.startReading()
    }

    private func received(_ bytes: UnsafeRawBufferPointer) {
        connection.loop.assertInLoop()
        switch phase {
        case .http: handle(parser.feed(bytes))
        case .webSocket: receivedFrames(bytes)
        case .closed: break
        }
    }

    /// The peer sent FIN (or the socket failed): a half-read request is answered 400, then TCP closes; in WebSocket
    /// the machine decides (it closes).
    private func peerEnded() {
        connection.loop.assertInLoop()
        switch phase {
        case .http:
            handle(parser.finish())
            phase = .closed
            connection.close()
        case .webSocket: webSocketEnded()
        case .closed: connection.close()
        }
    }

    /// Handles the first decisive HTTP event; everything after it is ignored.
    private func handle(_ events: [HTTPParseEvent]) {
        let decisive = events.first { event in
            if case .continueExpected = event { return false }
            return true
        }
        guard phase == .http, let event = decisive else { return }
        switch event {
        case .continueExpected:
            break
        case .request(let request):
            reject(status: 426, message: "This server speaks WebSocket only; send GET \(request.path) as an upgrade.",
                fields: [HTTPField(name: "Upgrade", value: "websocket")])
        case .upgrade(let request, let leftover):
            upgrade(request, leftover: leftover)
        case .failure(let failure):
            reject(status: failure.status, message: failure.message, fields: [])
        }
    }

    /// Answers with an error and closes once it is written.
    func reject(status: Int, message: String, fields: [HTTPField]) {
        connection.loop.assertInLoop()
        let response = HTTPResponse(
            status: status, fields: fields + [HTTPField(name: "Content-Type", value: "text/plain; charset=utf-8")],
            body: Array((message + "\n").utf8))
        connection.write(response.serialized(keepAlive: false))
        phase = .closed
        connection.closeAfterWrites()
    }
}
