/// One task parked in ``TestClock/sleep(until:tolerance:)``.
struct Sleeper: Sendable {
    /// Unique per clock; also orders sleepers that share a deadline (lower went to sleep first).
    let id: UInt64
    /// The offset from the clock's start at which it wakes.
    let deadline: Duration
    let continuation: CheckedContinuation<Void, any Error>
}

/// A caller of ``TestClock/waitForSleepers(_:timeout:)`` still waiting.
struct SleeperWaiter: Sendable {
    let id: UInt64
    /// Resumed once at least this many sleepers are parked.
    let count: Int
    let continuation: CheckedContinuation<Bool, Never>
    /// The task that gives up after the timeout; cancelled when the wait is satisfied first.
    var timeout: Task<Void, Never>?
}

/// Everything a ``TestClock`` guards with its mutex.
struct ClockState: Sendable {
    /// The time since the clock's start.
    var now: Duration = .zero
    var sleepers: [Sleeper] = []
    var waiters: [SleeperWaiter] = []
    /// Advances waiting for a woken sleeper (by id) to run again before they go on.
    var wakeAcknowledgements: [UInt64: CheckedContinuation<Void, Never>] = [:]
    private var nextID: UInt64 = 0

    /// A fresh id for a sleeper or waiter.
    mutating func makeID() -> UInt64 {
        nextID += 1
        return nextID
    }

    /// Removes and returns the sleeper with `id`, if it is still parked.
    mutating func removeSleeper(id: UInt64) -> Sleeper? {
        guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return sleepers.remove(at: index)
    }

    /// Removes and returns the earliest sleeper due at or before `target` (ties: lowest id), and
    /// moves `now` to its deadline.
    mutating func takeNextDue(by target: Duration) -> Sleeper? {
        var best: Int?
        for (index, sleeper) in sleepers.enumerated() where sleeper.deadline <= target {
            if let current = best {
                let other = sleepers[current]
                if (sleeper.deadline, sleeper.id) < (other.deadline, other.id) { best = index }
            } else {
                best = index
            }
        }
        guard let best else { return nil }
        let sleeper = sleepers.remove(at: best)
        now = max(now, sleeper.deadline)
        return sleeper
    }

    /// Removes and returns the waiters whose count the parked sleepers now reach.
    mutating func takeSatisfiedWaiters() -> [SleeperWaiter] {
        let parked = sleepers.count
        let satisfied = waiters.filter { $0.count <= parked }
        waiters.removeAll { $0.count <= parked }
        return satisfied
    }

    /// Removes and returns the waiter with `id`, if it is still waiting.
    mutating func removeWaiter(id: UInt64) -> SleeperWaiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index)
    }
}
