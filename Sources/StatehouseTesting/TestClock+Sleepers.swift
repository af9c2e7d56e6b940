extension TestClock {
    /// The number of tasks parked in ``sleep(until:tolerance:)`` right now.
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// The deadlines of the parked sleepers, earliest first.
    public var pendingDeadlines: [Instant] {
        state.withLock { $0.sleepers.map { Instant(offset: $0.deadline) } }.sorted()
    }

    /// Suspends until at least `count` tasks are parked on this clock, or `timeout` passes.
    ///
    /// Signal-driven: the sleeper that makes the count resumes the waiter; nothing polls. Use it to
    /// know that an effect has reached its `sleep` before advancing time.
    /// - Parameters:
    ///   - count: The number of parked sleepers to wait for (default `1`).
    ///   - timeout: Real (continuous-clock) time to wait at most (default 5 s).
    /// - Returns: `true` when the count was reached, `false` on timeout.
    @discardableResult
    public func waitForSleepers(_ count: Int = 1, timeout: Duration = .seconds(5)) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let id: UInt64? = state.withLock { state in
                if state.sleepers.count >= count { return nil }
                let id = state.makeID()
                state.waiters.append(SleeperWaiter(id: id, count: count, continuation: continuation))
                return id
            }
            guard let id else {
                continuation.resume(returning: true)
                return
            }
            let timer = Task { [weak self] in
                try? await Task.sleep(for: timeout)
                if Task.isCancelled { return }
                self?.expireWaiter(id: id)
            }
            let stillWaiting = state.withLock { state in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return false }
                state.waiters[index].timeout = timer
                return true
            }
            if !stillWaiting { timer.cancel() }
        }
    }

    /// Resumes the waiter with `id` with `false` if it is still waiting.
    private func expireWaiter(id: UInt64) {
        let waiter = state.withLock { $0.removeWaiter(id: id) }
        waiter?.continuation.resume(returning: false)
    }
}
