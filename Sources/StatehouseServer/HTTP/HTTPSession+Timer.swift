import HTTP1
import UVLoop

/// The loop timer behind the rules' timeouts (``HTTPServerConnection/Action/armTimer(_:milliseconds:)``).
///
/// The deadline is kept here and the loop timer re-armed lazily: a request answered within the idle timeout costs no
/// timer stop and start (the armed timer fires at the old deadline, sees a later one, and re-arms once).
extension HTTPSession {
    func armTimer(_ timeout: HTTPServerConnection.Timeout, milliseconds: Int) {
        context.loop.assertInLoop()
        timerKind = timeout
        let now = context.loop.now
        timerDeadline = now + UInt64(milliseconds)
        if let firesAt = timerFiresAt, firesAt <= timerDeadline { return }  // it fires first, then re-arms
        arm(at: timerDeadline, now: now)
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
        context.loop.assertInLoop()
        timer?.close()
        timer = nil
        timerFiresAt = nil
        timerKind = nil
    }

    private func timerFired() {
        context.loop.assertInLoop()
        timerFiresAt = nil
        guard let kind = timerKind else { return }
        let now = context.loop.now
        if now < timerDeadline { return arm(at: timerDeadline, now: now) }
        timerKind = nil
        rules.timerFired(kind)
        processNext()
    }
}
