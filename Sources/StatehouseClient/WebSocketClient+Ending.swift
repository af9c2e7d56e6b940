/// The way out: every ending goes through ``WebSocketClient/end(_:dropConnection:)`` or the machine's close, and
/// ``WebSocketClient/onEnd`` is called once, from ``WebSocketClient/finish()``.
extension WebSocketClient {
    /// Decides `ending` (unless one was decided already) and moves to `closing`: timers and a running connect are
    /// stopped; with `dropConnection`, TCP is closed at once (no Close frame). When there is no TCP connection,
    /// ``finish()`` runs in a later loop job (never inside the app's call).
    func end(_ ending: Ending, dropConnection: Bool) {
        loop.assertInLoop()
        if self.ending == nil { self.ending = ending }
        guard phase != .closed else { return }
        phase = .closing
        closeTimers()
        responseParser = nil
        if let connector {
            self.connector = nil
            connector.cancel()
        }
        if let connection {
            if dropConnection {
                isDropped = true
                connection.close()
            }
        } else {
            loop.execute { [self] in finish() }
        }
    }

    /// `closed`: TCP has closed (or never opened). Calls ``onEnd`` once and lets go of the app's callbacks.
    func finish() {
        loop.assertInLoop()
        guard phase != .closed else { return }
        phase = .closed
        closeTimers()
        connection = nil
        let onEnd = self.onEnd
        self.onEnd = nil
        onOpen = nil
        onText = nil
        onEnd?(ending ?? .failed("the connection closed"))
    }
}
