import StatehouseCore
import Synchronization
import Locking

/// One action the store handled, as a ``TestStore`` sees it through the store's tap.
struct RecordedAction<Action: Sendable>: Sendable {
    let action: Action
    /// Produced by an effect (a `receive` candidate) rather than sent by the test.
    let fromEffect: Bool
    /// Not reduced because its effect had been cancelled; never asserted.
    let dropped: Bool
    /// The store's version right after it was handled.
    let version: UInt64

    /// Whether a step must `receive` it: produced by an effect and reduced.
    var isReceivable: Bool { fromEffect && !dropped }

    /// One indented line per action, for a failure message that lists unreceived actions.
    static func list(_ entries: some Collection<RecordedAction>) -> String {
        entries.map { "  \(String(describing: $0.action))" }.joined(separator: "\n")
    }
}

/// What the store's tap and observer have reported, plus waiters for the next report.
///
/// ## Thread safety
/// `Sendable`: the tap and observer write from the store's actor, the ``TestStore`` reads from the
/// test's task; everything sits behind one `Locked`, continuations are resumed outside it.
final class TestStoreRecorder<State: Sendable, Action: Sendable>: Sendable {
    private struct Contents: Sendable {
        var actions: [RecordedAction<Action>] = []
        var states: [UInt64: State]
        var latest: Snapshot<State>
        var idleReports = 0
        /// Bumped on every report; waiters wait for it to move past what they saw.
        var generation: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
        /// The deadline task of each waiter, cancelled when a report resumes the waiter first.
        var timers: [UInt64: Task<Void, Never>] = [:]
        var nextWaiterID: UInt64 = 0
    }

    private let contents: Locked<Contents>

    init(initial: Snapshot<State>) {
        contents = Locked(Contents(states: [initial.version: initial.state], latest: initial))
    }

    /// Records a handled action (from the store's tap).
    func record(_ reduced: ReducedAction<Action>) {
        let entry = RecordedAction(
            action: reduced.action,
            fromEffect: reduced.fromEffect,
            dropped: reduced.dropped,
            version: reduced.version
        )
        report { $0.actions.append(entry) }
    }

    /// Records a new state (from the store's observer).
    func record(_ snapshot: Snapshot<State>) {
        report { contents in
            contents.states[snapshot.version] = snapshot.state
            if snapshot.version >= contents.latest.version { contents.latest = snapshot }
        }
    }

    /// Records that the store was seen idle.
    func recordIdle() {
        report { $0.idleReports += 1 }
    }

    /// The handled actions from `index` on, and the generation they were read at.
    func actions(from index: Int) -> (actions: ArraySlice<RecordedAction<Action>>, generation: UInt64) {
        contents.withLock { ($0.actions[min(index, $0.actions.count)...], $0.generation) }
    }

    /// The state at `version`, if the store reached it since the test store was installed.
    func state(at version: UInt64) -> State? {
        contents.withLock { $0.states[version] }
    }

    /// The newest snapshot reported, and the generation it was read at.
    var latest: (snapshot: Snapshot<State>, generation: UInt64) {
        contents.withLock { ($0.latest, $0.generation) }
    }

    /// How many times the store was seen idle, and the generation it was read at.
    var idleReports: (count: Int, generation: UInt64) {
        contents.withLock { ($0.idleReports, $0.generation) }
    }

    private func report(_ update: (inout Contents) -> Void) {
        let (waiters, timers) = contents.withLock { contents in
            update(&contents)
            contents.generation += 1
            defer {
                contents.waiters = [:]
                contents.timers = [:]
            }
            return (contents.waiters, contents.timers)
        }
        for timer in timers.values {
            timer.cancel()
        }
        for waiter in waiters.values {
            waiter.resume(returning: true)
        }
    }
}

extension TestStoreRecorder {
    /// Suspends until something is reported after `generation`, or until `deadline` passes.
    ///
    /// - Returns: `true` on a report (or if one already happened), `false` at the deadline.
    func waitForReport(after generation: UInt64, until deadline: ContinuousClock.Instant) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let id: UInt64? = contents.withLock { contents in
                if contents.generation != generation { return nil }
                contents.nextWaiterID += 1
                contents.waiters[contents.nextWaiterID] = continuation
                return contents.nextWaiterID
            }
            guard let id else {
                continuation.resume(returning: true)
                return
            }
            // Gives up at the deadline, unless a report resumed the waiter (and cancelled this) first.
            let timer = Task { [weak self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                let waiter = self?.contents.withLock { contents in
                    contents.timers[id] = nil
                    return contents.waiters.removeValue(forKey: id)
                }
                waiter?.resume(returning: false)
            }
            let waiting = contents.withLock { contents in
                guard contents.waiters[id] != nil else { return false }
                contents.timers[id] = timer
                return true
            }
            if !waiting { timer.cancel() }
        }
    }
}
