import DemoReducers
import StatehouseCore
import Synchronization

/// One row of the reducer-throughput table: how actions reach one fresh `Store<Counter>`, with how many observers.
struct ThroughputRow {
    enum Mode {
        /// `enqueue` all actions from one task without waiting; the last one carries a completion, awaited.
        case enqueue
        /// `await send` one action at a time (each waits for its reduce before the next is sent).
        case awaitedSend
    }

    var mode: Mode
    var observers: Int
    var actions: Int

    static func all(_ settings: BenchSettings) -> [ThroughputRow] {
        [
            ThroughputRow(mode: .enqueue, observers: 0, actions: settings.actions),
            ThroughputRow(mode: .enqueue, observers: 1, actions: settings.actions),
            ThroughputRow(mode: .enqueue, observers: 1_000, actions: max(settings.actions / 100, 1_000)),
            ThroughputRow(mode: .awaitedSend, observers: 0, actions: max(settings.actions / 10, 1_000)),
        ]
    }

    static let tableHeader = """
        | path | observers | actions per run | actions/s | ns per action | observer calls/s |
        |---|---:|---:|---:|---:|---:|
        """

    static let footnote = """
        Each run uses a fresh store and first awaits one `send` (warm-up, not timed). Enqueue rows: time runs \
        from the first `enqueue` to the completion of the last action (all reduced, all observers called); send \
        row: from the first `send` to the return of the last. Observers are \
        synchronous `observe` callbacks that add 1 to an atomic counter; after each run the counts and the final \
        version are checked.
        """

    /// Runs the row `runs` times and returns the median.
    func measure(runs: Int) async -> ThroughputResult {
        var rates: [Double] = []
        for _ in 0..<runs {
            rates.append(await actionsPerSecond())
        }
        return ThroughputResult(row: self, actionsPerSecond: median(rates))
    }

    /// One run: a fresh store, the observers, one warm-up `send`, then `actions` timed actions.
    private func actionsPerSecond() async -> Double {
        let store = Store(reducer: Counter(), state: Counter.State(), name: "bench")
        let calls = CallCounter()
        for _ in 0..<observers {
            _ = await store.observe { _ in calls.increment() }
        }
        _ = await store.send(.increment)
        let clock = ContinuousClock()
        let start = clock.now
        switch mode {
        case .enqueue:
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                for _ in 1..<actions {
                    store.enqueue(.increment)
                }
                store.enqueue(.increment) { _ in done.resume() }
            }
        case .awaitedSend:
            for _ in 0..<actions {
                _ = await store.send(.increment)
            }
        }
        let elapsed = (clock.now - start).seconds
        let expectedVersion = UInt64(actions + 1)
        let version = await store.version
        guard version == expectedVersion else { failCheck("version \(version), expected \(expectedVersion)") }
        guard calls.value == observers * (actions + 1) else {
            failCheck("\(calls.value) observer calls, expected \(observers * (actions + 1))")
        }
        return Double(actions) / elapsed
    }
}

/// The median figure of one ``ThroughputRow``.
struct ThroughputResult {
    var row: ThroughputRow
    var actionsPerSecond: Double

    var markdown: String {
        let path = row.mode == .enqueue ? "enqueue, await the last completion" : "await send, one at a time"
        let callsPerSecond = row.observers == 0 ? "–" : grouped(actionsPerSecond * Double(row.observers))
        return "| \(path) | \(grouped(Double(row.observers))) | \(grouped(Double(row.actions))) | "
            + "\(grouped(actionsPerSecond)) | \(grouped(1e9 / actionsPerSecond)) | \(callsPerSecond) |"
    }
}

/// Counts observer calls from the store's actor.
///
/// ## Thread safety
/// `Sendable`: the count is an `Atomic` (relaxed ordering; read once the run is over).
final class CallCounter: Sendable {
    private let count = Atomic<Int>(0)

    func increment() {
        count.wrappingAdd(1, ordering: .relaxed)
    }

    var value: Int {
        count.load(ordering: .relaxed)
    }
}
