extension TestClock {
    /// Moves time forward by `duration`, resuming every sleeper due on the way.
    ///
    /// Same guarantees as ``advance(to:)`` with `now + duration`.
    /// - Parameter duration: How far to move; zero or negative moves nothing (due sleepers at
    ///   ``now`` cannot exist, since such sleeps return at once).
    public func advance(by duration: Duration) async {
        await advance(to: now.advanced(by: duration))
    }

    /// Moves time forward to `target`, resuming every sleeper due on the way.
    ///
    /// Exactly what happens, repeated until no parked sleeper has a deadline at or before `target`:
    /// 1. the earliest due sleeper (ties: the one that went to sleep first) is removed, ``now`` is set
    ///    to its deadline, and it is resumed;
    /// 2. the advance waits until that task is running again: its `sleep` call is returning (the
    ///    woken task signals the clock on its way out of `sleep`);
    /// 3. the advance calls `Task.yield()` `yieldsPerWakeUp` times (see ``init(yieldsPerWakeUp:)``).
    ///
    /// Then ``now`` becomes `target`. Consequences:
    /// - every sleeper parked before this call with a deadline ≤ `target` has been resumed, in
    ///   deadline order, each seeing ``now`` equal to its deadline;
    /// - a woken task that goes back to sleep with a deadline ≤ `target` *and parks before the
    ///   advance looks again* is resumed by the same call (a repeating timer fires every period);
    ///   one that parks later stays parked until the next advance;
    /// - woken tasks run one at a time in deadline order as far as their `sleep` return: a sleeper
    ///   that called `sleep` from an actor is back on that actor before the next one is resumed, so
    ///   the code it runs synchronously after `sleep` happens in deadline order too;
    /// - it is not guaranteed that woken tasks have run up to their next suspension point (beyond
    ///   the yields): wait for that with a signal.
    ///
    /// A woken task whose executor never runs (for example a blocked thread) blocks the advance.
    ///
    /// A `target` before ``now`` leaves time unchanged. Concurrent advances are allowed but
    /// interleave their steps; tests normally advance from one task.
    /// - Parameter target: The instant to move to.
    public func advance(to target: Instant) async {
        while let sleeper = state.withLock({ $0.takeNextDue(by: target.offset) }) {
            await wake(sleeper)
        }
        state.withLock { state in
            state.now = max(state.now, target.offset)
        }
    }

    /// Advances to each next deadline until no sleeper is parked (after the yields that follow the
    /// last wake-up), or until `maxWakeUps` sleepers have been resumed.
    ///
    /// A task that keeps sleeping again (a repeating timer) would never let the clock run dry;
    /// `maxWakeUps` stops that.
    /// - Parameter maxWakeUps: The most sleepers to resume (default `10_000`).
    /// - Returns: `true` when no sleeper is left; `false` when it stopped at `maxWakeUps`.
    @discardableResult
    public func run(maxWakeUps: Int = 10_000) async -> Bool {
        var wakeUps = 0
        while wakeUps < maxWakeUps {
            let next = state.withLock { state in
                state.sleepers.min { ($0.deadline, $0.id) < ($1.deadline, $1.id) }?.deadline
            }
            guard let next else { return true }
            guard let sleeper = state.withLock({ $0.takeNextDue(by: next) }) else { continue }
            await wake(sleeper)
            wakeUps += 1
        }
        return state.withLock { $0.sleepers.isEmpty }
    }

    /// Resumes `sleeper`, waits until its task runs again (returns from `sleep`), then yields.
    private func wake(_ sleeper: Sleeper) async {
        await withCheckedContinuation { (acknowledgement: CheckedContinuation<Void, Never>) in
            state.withLock { $0.wakeAcknowledgements[sleeper.id] = acknowledgement }
            sleeper.continuation.resume()
        }
        for _ in 0..<yieldsPerWakeUp {
            await Task.yield()
        }
    }
}
