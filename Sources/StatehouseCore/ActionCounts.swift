import Synchronization
public import Locking

/// How many actions a store has reduced and dropped since it was created, and how long its reduces took, readable
/// from any thread without a hop to the store's actor (metrics). Stored inline in the store (three words, and a
/// histogram made at the first reduce: an idle store's heap cost is budgeted, Tests/StatehouseServerTests/
/// StoreMemoryTests).
///
/// ## Thread safety
/// Sendable: atomic counters, bumped on the store's actor (relaxed adds per action), read anywhere.
public struct ActionCounts: ~Copyable, Sendable {
    private let reducedCount = Atomic<UInt64>(0)
    private let droppedCount = Atomic<UInt64>(0)
    private let reduceTimes = AtomicLazyReference<DurationHistogram>()

    init() {}

    /// Actions the reducer ran (from clients and from effects, whether or not the state changed), since creation.
    public var reduced: UInt64 { reducedCount.load(ordering: .relaxed) }

    /// Actions dropped at reduce time (their effect run was cancelled, or the store was stopped), since creation.
    public var dropped: UInt64 { droppedCount.load(ordering: .relaxed) }

    /// How long the reducer's `reduce` took per action (``DurationHistogram/reduceBoundsNs``); nil before the first.
    public var reduceDurations: DurationHistogram.Snapshot? { reduceTimes.load()?.snapshot() }

    /// Counts one reduce that took `nanoseconds`.
    func countReduced(nanoseconds: UInt64) {
        reducedCount.wrappingAdd(1, ordering: .relaxed)
        let histogram =
            reduceTimes.load()
            ?? reduceTimes.storeIfNil(DurationHistogram(upperBoundsNs: DurationHistogram.reduceBoundsNs))
        histogram.record(nanoseconds: nanoseconds)
    }

    func countDropped() { droppedCount.wrappingAdd(1, ordering: .relaxed) }
}
