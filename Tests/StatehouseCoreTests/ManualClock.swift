import Foundation
import Synchronization
import Locking

/// A clock that only moves when a test calls `advance(by:)`.
///
/// `sleep(until:)` returns at once for a deadline already reached; otherwise it suspends until an
/// `advance` reaches the deadline, or throws `CancellationError` when its task is cancelled.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var current = Instant(offset: .zero)
        var sleepers: [UInt64: Sleeper] = [:]
        var nextSleeperID: UInt64 = 0
    }
    private let state = Locked(State())

    var now: Instant { state.withLock { $0.current } }

    var minimumResolution: Duration { .zero }

    /// The number of tasks currently suspended in `sleep`.
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = makeSleeperID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Decided under the lock, resumed after it.
                let outcome = state.withLock { state -> Result<Void, CancellationError>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.current { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    private func makeSleeperID() -> UInt64 {
        state.withLock { state in
            state.nextSleeperID += 1
            return state.nextSleeperID
        }
    }

    /// Moves time forward and resumes, earliest deadline first, every sleeper whose deadline passed.
    func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.current = state.current.advanced(by: duration)
            let now = state.current
            let due = state.sleepers.filter { $0.value.deadline <= now }
                .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
            for (id, _) in due {
                state.sleepers[id] = nil
            }
            return due
        }
        for (_, sleeper) in due {
            sleeper.continuation.resume()
        }
    }
}
