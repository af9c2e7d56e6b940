import Foundation
import UVLoop
import WebSocket

/// Liveness (RFC 6455 §5.5.2–§5.5.3): a connection that sent nothing for `pingIntervalMs` is pinged; if it still sends
/// nothing (a pong, or anything else) within `pongTimeoutMs` of the ping being sent, it is dropped.
///
/// A ping still queued behind unsent bytes (the server's, or the kernel's held for the peer's receive window) cannot
/// have been answered, and while the connection is write-paused the
/// session reads nothing, so it could not hear the answer: in both cases the pong wait is held, not failed. Such a
/// connection belongs to the lag rule (4008 after `streams.maxLagSeconds` behind) and the write-stall rule
/// (`timeouts.writeStallMs` without the peer reading), which see it for what it is.
extension WebSocketSession {
    /// Keep-alive phase (explicit):
    /// ```
    /// listening ──silent pingIntervalMs──▶ awaitingPong ──heard anything──▶ listening
    ///                                        │  └─ping unsent or write-paused─▶ awaitingPong(held) ──▶ (full pong wait)
    ///                                        └─pongTimeoutMs after it was sent, nothing heard─▶ dropped
    /// ```
    enum KeepAlivePhase {
        case listening
        /// `sentAt`: when the ping was queued; `end`: its end as a stream offset (``TCPConnection/acceptedBytes``);
        /// `held`: the last check found it unsent (or the session not reading), so the next check, if it finds it
        /// out, waits a full `pongTimeoutMs` more.
        case awaitingPong(sentAt: ContinuousClock.Instant, end: UInt64, held: Bool)
    }

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
        if case .awaitingPong(let sent, let end, let held) = keepAlivePhase {
            if lastHeard > sent {
                keepAlivePhase = .listening
            } else if !connection.hasSent(upTo: end) || connection.isWritePaused {
                keepAlivePhase = .awaitingPong(sentAt: sent, end: end, held: true)
                return arm(after: timeouts.pongTimeoutMs)
            } else if held {
                keepAlivePhase = .awaitingPong(sentAt: sent, end: end, held: false)
                return arm(after: timeouts.pongTimeoutMs)
            } else {
                Log.shared.info("ws \(label) dropped: no answer to a ping within \(timeouts.pongTimeoutMs) ms")
                return connection.close()
            }
        }
        let idleMs = Int((now - lastHeard) / .milliseconds(1))
        if idleMs >= timeouts.pingIntervalMs {
            connection.write(WebSocketFrameEncoder.frame(opcode: .ping, payload: Array("statehouse".utf8)))
            keepAlivePhase = .awaitingPong(sentAt: now, end: connection.acceptedBytes, held: false)
            arm(after: timeouts.pongTimeoutMs)
        } else {
            arm(after: timeouts.pingIntervalMs - idleMs)
        }
    }
}
