import UVLoop

extension ClientConnection {
    /// Starts `seq`'s ack timeout at its first write: `ackTimeoutMs`, plus its own settle timeout, and never before
    /// the deadline of an earlier settled action still pending (the server answers a connection's actions in the
    /// order they arrived, so a plain ack may wait behind a settled one).
    func armAckTimer(seq: UInt64, settleTimeoutMs: Int?) {
        let allowed = configuration.ackTimeoutMs + (settleTimeoutMs ?? 0)
        var deadline = loop.now + UInt64(allowed)
        for action in session.pending where action.seq < seq && action.settleTimeoutMs != nil {
            if let earlier = ackDeadlines[action.seq], earlier.at > deadline { deadline = earlier.at }
        }
        ackDeadlines[seq] = (deadline, allowed)
        guard ackSweep == nil else { return }
        let timer = LoopTimer(loop: loop)
        ackSweep = timer
        let period = UInt64(max(10, min(configuration.ackTimeoutMs / 4, 1_000)))
        timer.start(delayMs: period, repeatMs: period) { [weak self] in self?.sweepAcks() }
    }

    /// Fails every action past its deadline; stops the sweep when none is left.
    private func sweepAcks() {
        let now = loop.now
        let expired = ackDeadlines.filter { $0.value.at <= now }.sorted { $0.key < $1.key }
        var outputs: [ClientSession.Output] = []
        for (seq, deadline) in expired {
            ackDeadlines[seq] = nil
            session.ackTimedOut(seq: seq, afterMs: deadline.allowedMs, into: &outputs)
        }
        run(outputs)
        if ackDeadlines.isEmpty {
            ackSweep?.close()
            ackSweep = nil
        }
    }
}
