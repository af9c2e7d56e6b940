import UVLoop
import WebSocket

/// The machine's timers on the loop: the keep-alive check (RFC 6455 §5.5.2–§5.5.3) and the closing handshake's wait.
extension WebSocketClient {
    /// Starts (or restarts) `timer` to fire after `ms` milliseconds; each timer's handle is made once.
    func arm(_ timer: WebSocketConnection.Timer, afterMs ms: Int) {
        let delay = UInt64(max(ms, 1))
        switch timer {
        case .keepAlive:
            if let keepAliveTimer { return keepAliveTimer.start(delayMs: delay) }
            let handle = LoopTimer(loop: loop)
            keepAliveTimer = handle
            handle.start(delayMs: delay) { [weak self] in self?.keepAliveFired() }
        case .close:
            if let closeTimer { return closeTimer.start(delayMs: delay) }
            let handle = LoopTimer(loop: loop)
            closeTimer = handle
            handle.start(delayMs: delay) { [weak self] in
                self?.perform { $0.timerFired(.close, WebSocketConnection.TransportStatus(now: 0), into: &$1) }
            }
        }
    }

    /// The keep-alive check, told whether the awaited ping has left and whether the socket is write-paused.
    private func keepAliveFired() {
        guard let connection else { return }
        let status = WebSocketConnection.TransportStatus(
            now: loop.now, acceptedBytes: connection.acceptedBytes,
            pingIsSent: machine.awaitedPingEnd.map { connection.hasSent(upTo: $0) } ?? true,
            isWritePaused: connection.isWritePaused)
        perform { $0.timerFired(.keepAlive, status, into: &$1) }
    }

    /// Closes every timer handle (the client is ending).
    func closeTimers() {
        connectTimer?.close()
        connectTimer = nil
        keepAliveTimer?.close()
        keepAliveTimer = nil
        closeTimer?.close()
        closeTimer = nil
    }
}
