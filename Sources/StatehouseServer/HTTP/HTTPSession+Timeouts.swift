import HTTP1
import UVLoop

/// The timeout of what the connection waits for: the next request (idle), the rest of a head, or the rest of a body;
/// none while a request is being answered.
///
/// The idle timeout counts from the last response (or from when the connection opened), never from bytes that do not
/// complete a request. Deadlines are kept in the session and the timer is re-armed lazily: a request answered within
/// the idle timeout costs no timer stop and start (the armed timer fires at the old deadline, sees a later one, and
/// re-arms once).
extension HTTPSession {
    func updateTimer() {
        let phase: TimerPhase
        if state != .idle || queuedCount > 0 {
            phase = .none
        } else if parser.isMidMessage {
            phase = parser.areHeadersComplete ? .body : .head
        } else {
            phase = .idle
        }
        // A request answered at once leaves the phase idle, yet the idle time starts again from its response.
        let answered = requestsSinceTimer > 0
        requestsSinceTimer = 0
        guard phase != timerPhase || (phase == .idle && answered) else { return }
        timerPhase = phase
        let timeouts = context.timeouts
        let ms: Int
        switch phase {
        case .none: return  // an armed timer finds nothing to do when it fires
        case .idle: ms = timeouts.idleTimeoutMs
        case .head: ms = timeouts.headerTimeoutMs
        case .body: ms = timeouts.bodyTimeoutMs
        }
        let now = context.loop.now
        phaseDeadline = now + UInt64(ms)
        if let firesAt = timerFiresAt, firesAt <= phaseDeadline { return }  // it fires first, then re-arms
        arm(at: phaseDeadline, now: now)
    }

    private func arm(at deadline: UInt64, now: UInt64) {
        let timer: LoopTimer
        if let existing = self.timer {
            timer = existing
        } else {
            timer = LoopTimer(loop: context.loop)
            self.timer = timer
        }
        timerFiresAt = deadline
        timer.start(delayMs: deadline - now) { [weak self] in self?.timerFired() }
    }

    /// The connection goes to another session (WebSocket, SSE): this one's timer is closed for good (its handle
    /// would otherwise stay open, and fire later for a session that no longer exists).
    func endTimer() {
        timer?.close()
        timer = nil
        timerFiresAt = nil
        timerPhase = .none
    }

    private func timerFired() {
        timerFiresAt = nil
        guard timerPhase != .none else { return }
        let now = context.loop.now
        if now < phaseDeadline { return arm(at: phaseDeadline, now: now) }
        timedOut(timerPhase)
    }

    private func timedOut(_ phase: TimerPhase) {
        guard state == .idle else { return }
        switch phase {
        case .none: break
        case .idle: close()
        case .head, .body:
            current = ("", "", "(request timed out)")
            let what = phase == .head ? "header fields" : "body"
            send(error: APIError(
                status: 408, code: "request_timeout",
                message: "The request's \(what) did not arrive in time; send the whole request promptly."),
                keepAlive: false, headOnly: false)
        }
    }
}
