import Locking
import StatehouseCore

/// One wait of `Store.expect(_:_:timeout:fileID:filePath:line:column:)`: for the value `value` at `keyPath` of a
/// store's state, until a deadline passes.
///
/// Lifecycle (an explicit state machine, see ``Phase``); the first transition out of `waiting` wins, later ones are
/// ignored:
/// ```
/// waiting ──a snapshot has the value (the current one, or the store's observer)──▶ finished(.reached)
///    └─────the deadline passes (real clock)─────────────────────────────────────────▶ finished(.timedOut)
/// ```
/// Nothing polls: snapshots come from the store's observer (``Store/observe(_:)``), the deadline from one sleeping
/// task.
///
/// ## Thread safety
/// `Sendable`: the observer calls ``see(_:)`` on the store's actor, the deadline from its task, the caller waits in ``outcome()``; everything sits behind one `Locked`, the waiter is resumed outside it.
final class StateExpectation<State: Sendable, Value: Equatable & Sendable>: Sendable {
    /// How the wait ended.
    enum Outcome: Sendable {
        case reached
        /// The deadline passed; the newest snapshot seen, if any.
        case timedOut(Snapshot<State>?)
    }

    /// Where the wait is (see the diagram on ``StateExpectation``).
    enum Phase: Sendable {
        /// Still waiting; the caller, once it suspended in ``outcome()``.
        case waiting(CheckedContinuation<Outcome, Never>?)
        case finished(Outcome)
    }

    private struct Contents: Sendable {
        var phase = Phase.waiting(nil)
        var latest: Snapshot<State>?
    }

    let keyPath: any KeyPath<State, Value> & Sendable
    let value: Value
    private let contents = Locked(Contents())

    init(keyPath: any KeyPath<State, Value> & Sendable, value: Value) {
        self.keyPath = keyPath
        self.value = value
    }

    /// Whether the wait is over.
    var isFinished: Bool {
        contents.withLock { contents in
            if case .finished = contents.phase { return true }
            return false
        }
    }

    /// Takes a snapshot (the current one, or one from the store's observer): the wait is reached if it has the value.
    func see(_ snapshot: Snapshot<State>) {
        let reached = snapshot.state[keyPath: keyPath] == value
        let waiter = contents.withLock { contents -> CheckedContinuation<Outcome, Never>? in
            if let latest = contents.latest, latest.version > snapshot.version { return nil }
            contents.latest = snapshot
            return reached ? Self.finish(&contents, .reached) : nil
        }
        waiter?.resume(returning: .reached)
    }

    /// The deadline passed: the wait ends, unless it already did.
    func deadlinePassed() {
        let latest = contents.withLock { $0.latest }
        end(.timedOut(latest))
    }

    /// Suspends until the wait ends (returns at once if it has).
    func outcome() async -> Outcome {
        await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let finished = contents.withLock { contents -> Outcome? in
                if case .finished(let outcome) = contents.phase { return outcome }
                contents.phase = .waiting(continuation)
                return nil
            }
            if let finished { continuation.resume(returning: finished) }
        }
    }

    private func end(_ outcome: Outcome) {
        let waiter = contents.withLock { Self.finish(&$0, outcome) }
        waiter?.resume(returning: outcome)
    }

    /// Moves `waiting` to `finished(outcome)`; returns the waiter to resume (outside the lock), if one is parked.
    private static func finish(_ contents: inout Contents, _ outcome: Outcome) -> CheckedContinuation<Outcome, Never>? {
        guard case .waiting(let waiter) = contents.phase else { return nil }
        contents.phase = .finished(outcome)
        return waiter
    }
}
