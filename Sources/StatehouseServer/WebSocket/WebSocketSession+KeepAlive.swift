import Foundation
import UVLoop
import WebSocket

/// Liveness (RFC 6455 §5.5.2–§5.5.3): a connection that sent nothing for `pingIntervalMs` is pinged; if it still sends
/// nothing (a pong, or anything else) within `pongTimeoutMs`, it is dropped.
extension WebSocketSession {
    /// Starts watching liveness; called once the session is open.
    func startKeepAlive() {
        lastHeard = .now
        arm(after: context.timeouts.pingIntervalMs)
    }

    private func arm(after ms: Int) {
        let timer = keepAlive ?? LoopTimer(loop: context.loop)
        keepAlive = timer
        timer.start(delayMs: UInt64(max(ms, 1))) { [unowned self] in check() }
    }

    private func check() {
        guard state == .open else { return }
        let now = ContinuousClock.now
        let timeouts = context.timeouts
        if let sent = pingSentAt {
            guard lastHeard > sent else {
                Log.shared.info("ws \(label) dropped: no answer to a ping within \(timeouts.pongTimeoutMs) ms")
                return connection.close()
            }
            pingSentAt = nil
        }
        let idleMs = Int((now - lastHeard) / .milliseconds(1))
        if idleMs >= timeouts.pingIntervalMs {
            connection.write(WebSocketFrameEncoder.frame(opcode: .ping, payload: Array("statehouse".utf8)))
            pingSentAt = now
            arm(after: timeouts.pongTimeoutMs)
        } else {
            arm(after: timeouts.pingIntervalMs - idleMs)
        }
    }
}
