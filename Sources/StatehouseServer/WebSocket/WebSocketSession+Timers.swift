import UVLoop
import WebSocket

/// The machine's timers on the loop: the keep-alive check (RFC 6455 §5.5.2–§5.5.3; the rules, including "a
/// write-paused connection is not dropped for a missing pong", are `WebSocketConnection`'s) and the closing
/// handshake's 1 s wait for the client's Close.
extension WebSocketSession {
    /// Starts (or restarts) `timer` to fire after `ms` milliseconds; each timer's handle is made once.
    func arm(_ timer: WebSocketConnection.Timer, afterMs ms: Int) {
        context.loop.assertInLoop()
        let delay = UInt64(max(ms, 1))
        switch timer {
        case .keepAlive:
            if let keepAlive { return keepAlive.start(delayMs: delay) }
            let handle = LoopTimer(loop: context.loop)
            keepAlive = handle
            handle.start(delayMs: delay) { [unowned self] in keepAliveFired() }
        case .close:
            if let closeTimer { return closeTimer.start(delayMs: delay) }
            let handle = LoopTimer(loop: context.loop)
            closeTimer = handle
            handle.start(delayMs: delay) { [weak self] in
                self?.perform { $0.timerFired(.close, WebSocketConnection.TransportStatus(now: 0), into: &$1) }
            }
        }
    }

    /// The keep-alive check, told what the transport knows: whether the awaited ping has left, and whether the
    /// connection is write-paused (it reads nothing then, so it could not hear a pong).
    private func keepAliveFired() {
        context.loop.assertInLoop()
        let status = WebSocketConnection.TransportStatus(
            now: context.loop.now, acceptedBytes: connection.acceptedBytes,
            pingIsSent: machine.awaitedPingEnd.map { connection.hasSent(upTo: $0) } ?? true,
            isWritePaused: connection.isWritePaused)
        perform { $0.timerFired(.keepAlive, status, into: &$1) }
    }
}
