import Locking

/// Collects one value from each of the server's loops (each read on its own loop) and calls `done` once with all
/// of them, on the thread of the last loop to answer: `GET /metrics` asks every loop for its ``LoopFigures``, the
/// inspector's overview for its ``InspectorOverview/Loop``.
///
/// ## Thread safety
/// Sendable: a lock around the values gathered so far.
final class LoopGathering<Value: Sendable>: Sendable {
    private let expected: Int
    private let gathered = Locked<[Value]>([])
    private let done: @Sendable ([Value]) -> Void

    /// - Parameters:
    ///   - expected: how many ``add(_:)`` calls complete it (0 calls `done` at once, with nothing).
    ///   - done: called once with every value, in the order they came.
    init(expected: Int, done: @escaping @Sendable ([Value]) -> Void) {
        self.expected = expected
        self.done = done
        if expected == 0 { done([]) }
    }

    func add(_ value: Value) {
        let all = gathered.withLock { gathered -> [Value]? in
            gathered.append(value)
            return gathered.count == expected ? gathered : nil
        }
        if let all { done(all) }
    }
}
