import UVLoop

/// What the server holds for its connections right now, read on each loop (tests and diagnostics). Call these from
/// any thread but a loop's.
extension Server {
    /// Bytes accepted for writing and not yet written to the sockets, over every open connection of every loop.
    func unsentBytes() -> Int { sumOverSessions { $0.connection.unsentBytes } }

    /// Sessions whose connection has not fully closed yet (those closing after their writes included).
    func sessionCount() -> Int { sumOverSessions { _ in 1 } }

    /// Sessions whose connection has not begun to close.
    func openConnectionCount() -> Int { sumOverSessions { $0.connection.isOpen ? 1 : 0 } }

    /// WebSocket and SSE sessions with a subscriber behind (its connection was write-paused).
    func behindSubscriberCount() -> Int {
        sumOverSessions { session in
            switch session {
            case let webSocket as WebSocketSession: webSocket.hasBehindSubscription ? 1 : 0
            case let events as SSESession: events.cursor.isBehind ? 1 : 0
            default: 0
            }
        }
    }

    /// libuv handles open on every loop (listeners, connections, timers; each loop's door not counted).
    func openHandleCount() -> Int { sumOverLoops { context in context.loop.openHandleCount } }

    private func sumOverSessions(_ value: @escaping @Sendable (any ServerSession) -> Int) -> Int {
        sumOverLoops { context in context.sessions.values.reduce(0) { $0 + value($1) } }
    }

    /// `value` of each loop's context, read on that loop, added up.
    private func sumOverLoops(_ value: @escaping @Sendable (ServerContext) -> Int) -> Int {
        contexts.reduce(0) { total, context in total + ((try? context.loop.submitAndWait { value(context) }) ?? 0) }
    }
}
