/// Liveness (RFC 6455 §5.5.2–§5.5.3): a connection that sent nothing for `pingIntervalMs` is pinged; if it still sends
/// nothing (a pong, or anything else) within `pongTimeoutMs` of the ping being *sent*, it is dropped.
///
/// A ping still queued behind unsent bytes (ours, or the kernel's held for the peer's receive window) cannot have been
/// answered, and a write-paused transport reads nothing, so it could not hear the answer: in both cases the pong wait
/// is held, not failed (``WebSocketConnection/TransportStatus``). Such a connection belongs to the app's slow-consumer
/// rules (in Statehouse: 4008 after `streams.maxLagSeconds` behind, and the write-stall timeout), which see it for
/// what it is.
extension WebSocketConnection {
    /// Keep-alive phase:
    /// ```
    /// stopped ──startLiveness──▶ listening ──silent pingIntervalMs: Ping──▶ awaitingPong ──heard anything──▶ listening
    ///                                          │  └─ping unsent or write-paused─▶ awaitingPong(held) ──▶ (full pong wait)
    ///                                          └─pongTimeoutMs after it was sent, nothing heard─▶ closed (noPong)
    /// ```
    enum KeepAlivePhase: Equatable {
        case stopped
        case listening
        /// `end`: the ping's end as a stream offset (``TransportStatus/acceptedBytes`` + its frame); `held`: the last
        /// check found it unsent (or the transport not reading), so the next check, if it finds it out, waits a full
        /// `pongTimeoutMs` more.
        case awaitingPong(end: UInt64, held: Bool)
    }

    /// The keep-alive bookkeeping.
    struct KeepAlive {
        var phase = KeepAlivePhase.stopped
        /// When input last arrived, ms.
        var lastHeard: UInt64 = 0
        /// Whether input arrived since the last ping was queued.
        var heardSincePing = false
        /// Whether the `.keepAlive` timer was armed and has not fired or been cancelled.
        var isArmed = false
    }

    /// Event: start watching liveness (once the connection is set up); no effect without ``Configuration/liveness``,
    /// when not open, or when already started. Arms the `.keepAlive` timer for `pingIntervalMs`.
    /// - Parameter now: monotonic time, ms.
    public mutating func startLiveness(now: UInt64, into actions: inout [Action]) {
        guard let liveness = configuration.liveness, lifecycle == .open, keepAlive.phase == .stopped else { return }
        keepAlive.lastHeard = now
        keepAlive.phase = .listening
        armKeepAlive(after: liveness.pingIntervalMs, into: &actions)
    }

    /// The stream offset the transport must have sent up to for the awaited Ping to be out (give
    /// ``TransportStatus/pingIsSent`` from it); nil when no pong is awaited.
    public var awaitedPingEnd: UInt64? {
        if case .awaitingPong(let end, _) = keepAlive.phase { return end }
        return nil
    }

    /// The keep-alive timer fired while open.
    mutating func checkLiveness(_ status: TransportStatus, into actions: inout [Action]) {
        guard let liveness = configuration.liveness, keepAlive.phase != .stopped else { return }
        if case .awaitingPong(let end, let held) = keepAlive.phase {
            if keepAlive.heardSincePing {
                keepAlive.phase = .listening
            } else if !status.pingIsSent || status.isWritePaused {
                keepAlive.phase = .awaitingPong(end: end, held: true)
                return armKeepAlive(after: liveness.pongTimeoutMs, into: &actions)
            } else if held {
                keepAlive.phase = .awaitingPong(end: end, held: false)
                return armKeepAlive(after: liveness.pongTimeoutMs, into: &actions)
            } else {
                return enterClosed(afterWrites: false, cause: .noPong, into: &actions)
            }
        }
        let idleMs = status.now >= keepAlive.lastHeard ? Int(clamping: status.now - keepAlive.lastHeard) : 0
        if idleMs >= liveness.pingIntervalMs {
            let ping = liveness.pingPayload.withUnsafeBytes { frame(.ping, payload: $0) }
            actions.append(.write(ping))
            keepAlive.phase = .awaitingPong(end: status.acceptedBytes &+ UInt64(ping.count), held: false)
            keepAlive.heardSincePing = false
            armKeepAlive(after: liveness.pongTimeoutMs, into: &actions)
        } else {
            armKeepAlive(after: liveness.pingIntervalMs - idleMs, into: &actions)
        }
    }

    private mutating func armKeepAlive(after ms: Int, into actions: inout [Action]) {
        keepAlive.isArmed = true
        actions.append(.armTimer(.keepAlive, milliseconds: max(ms, 1)))
    }

    /// Stops the keep-alive (the connection is closing).
    mutating func cancelKeepAlive(into actions: inout [Action]) {
        if keepAlive.phase != .stopped { keepAlive.phase = .stopped }
        guard keepAlive.isArmed else { return }
        keepAlive.isArmed = false
        actions.append(.cancelTimer(.keepAlive))
    }
}
