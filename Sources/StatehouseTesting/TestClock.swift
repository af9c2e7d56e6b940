import Synchronization
import Locking

/// A manual `Clock<Duration>` for tests: time moves only when the test calls ``advance(by:)``,
/// ``advance(to:)`` or ``run(maxWakeUps:)``.
///
/// ```swift
/// let clock = TestClock()
/// let task = Task { try await clock.sleep(for: .seconds(5)) }
/// await clock.waitForSleepers(1)      // the task is now parked on the clock
/// await clock.advance(by: .seconds(5)) // resumes it
/// ```
///
/// Time starts at ``Instant/zero`` and never goes backwards. ``sleep(until:tolerance:)`` returns at
/// once when the deadline is not after ``now``; otherwise the caller is parked until an advance
/// reaches the deadline. `tolerance` is ignored: a sleeper wakes exactly at its deadline.
///
/// What an advance guarantees (details in ``advance(to:)``): due sleepers are resumed one at a time
/// in deadline order (ties in the order they went to sleep), with ``now`` equal to each sleeper's
/// deadline when it is resumed; after each resumption the advance waits until the woken task is
/// running again (returning from `sleep`), then yields so it can go on. It does not guarantee that
/// the woken task has reached its next suspension point: wait for effects of a wake-up with a signal
/// (``waitForSleepers(_:timeout:)``, `TestStore.receive`), not by assuming they already happened.
///
/// `sleep(until:tolerance:)` is `nonisolated(nonsending)`: called from an actor, it stays on that
/// actor, so the woken task is back on its actor before the next sleeper is resumed.
///
/// Cancellation: cancelling a sleeping task removes its sleeper and makes `sleep` throw
/// `CancellationError` at once, without any advance. A task that is already cancelled throws on entry.
///
/// ## Thread safety
/// `Sendable`; every member may be called from any task. State sits behind one `Locked`;
/// continuations are resumed outside the lock.
public final class TestClock: Clock, Sendable {
    let state = Locked(ClockState())
    let yieldsPerWakeUp: Int

    /// Creates a clock at ``Instant/zero`` with no sleepers.
    ///
    /// - Parameter yieldsPerWakeUp: How many times an advance calls `Task.yield()` after resuming
    ///   each sleeper (default `20`), to let woken tasks run before the next one is resumed.
    public init(yieldsPerWakeUp: Int = 20) {
        self.yieldsPerWakeUp = max(0, yieldsPerWakeUp)
    }

    /// The current instant; changes only through the advance methods.
    public var now: Instant {
        state.withLock { Instant(offset: $0.now) }
    }

    /// `.zero`: instants are exact `Duration` offsets.
    public var minimumResolution: Duration {
        .zero
    }

    /// Suspends until an advance moves ``now`` to or past `deadline`.
    ///
    /// - Parameters:
    ///   - deadline: When to wake. At or before ``now``: returns at once.
    ///   - tolerance: Ignored; the sleeper wakes exactly at `deadline`.
    /// - Throws: `CancellationError` if the task is cancelled before or while sleeping (at once,
    ///   with no advance needed).
    public nonisolated(nonsending) func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { $0.makeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                park(id: id, deadline: deadline.offset, continuation: continuation)
            }
        } onCancel: {
            let sleeper = state.withLock { $0.removeSleeper(id: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        // Running again: let the advance that woke us move on (nothing waits if we were due at once).
        let advance = state.withLock { $0.wakeAcknowledgements.removeValue(forKey: id) }
        advance?.resume()
    }

    /// Registers a sleeper, or resumes it at once when it is cancelled or already due.
    private func park(id: UInt64, deadline: Duration, continuation: CheckedContinuation<Void, any Error>) {
        enum Outcome {
            case cancelled, due
            case parked([SleeperWaiter])
        }
        let outcome = state.withLock { state -> Outcome in
            // Checked under the lock: a cancel that lands after this check finds the sleeper.
            if Task.isCancelled { return .cancelled }
            if deadline <= state.now { return .due }
            state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
            return .parked(state.takeSatisfiedWaiters())
        }
        switch outcome {
        case .cancelled:
            continuation.resume(throwing: CancellationError())
        case .due:
            continuation.resume()
        case .parked(let waiters):
            for waiter in waiters {
                waiter.timeout?.cancel()
                waiter.continuation.resume(returning: true)
            }
        }
    }
}
