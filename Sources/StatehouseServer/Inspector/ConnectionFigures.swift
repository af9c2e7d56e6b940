import UVLoop

/// One open connection as the inspector lists it (`GET /inspector/overview`, `loops[].connections[]`): what is cheap
/// to know, read on the connection's loop when asked (nothing is kept per connection for it but the accept time
/// ``TCPConnection/ageMs`` reads).
struct ConnectionFigures: Sendable {
    /// What the connection speaks now (an HTTP connection that upgraded is listed as what it became).
    enum Kind: String, Sendable {
        case http
        case webSocket = "websocket"
        case serverSentEvents = "sse"
    }

    /// The connection number (`conn=` in log lines).
    var id: UInt64
    /// `host:port` of the peer; nil when the kernel no longer knows it (closing).
    var peer: String?
    var kind: Kind
    /// Milliseconds since the connection was accepted.
    var ageMs: UInt64
    /// Bytes queued for the peer and not yet handed to the kernel.
    var unsentBytes: Int
    /// The stores it streams: a WebSocket's subscriptions (one per `subscribe` on `/ws`), an SSE stream's store;
    /// sorted by name, a name once per subscription. Empty for plain HTTP.
    var subscriptions: [String]

    /// The connections of `context`'s loop, by number; call on that loop.
    static func read(_ context: ServerContext) -> [ConnectionFigures] {
        context.loop.assertInLoop()
        var list: [ConnectionFigures] = []
        list.reserveCapacity(context.sessions.count)
        for session in context.sessions.values {
            let kind: Kind
            var subscriptions: [String] = []
            switch session {
            case let webSocket as WebSocketSession:
                kind = .webSocket
                subscriptions = webSocket.subscriptions.values.map(\.store.name).sorted()
            case let events as SSESession:
                kind = .serverSentEvents
                subscriptions = [events.store.name]
            default:
                kind = .http
            }
            let connection = session.connection
            list.append(
                ConnectionFigures(
                    id: session.connectionID, peer: connection.peerAddress, kind: kind, ageMs: connection.ageMs,
                    unsentBytes: connection.unsentBytes, subscriptions: subscriptions))
        }
        return list.sorted { $0.id < $1.id }
    }
}
