import Synchronization

/// How many actions a store has reduced and dropped since it was created, readable from any thread without a hop to
/// the store's actor (metrics). Stored inline in the store (two words, no object of its own: an idle store's heap cost
/// is budgeted, Tests/StatehouseServerTests/StoreMemoryTests).
///
/// ## Thread safety
/// Sendable: two atomic counters, bumped on the store's actor (one relaxed add per action), read anywhere.
public struct ActionCounts: ~Copyable, Sendable {
    private let reducedCount = Atomic<UInt64>(0)
    private let droppedCount = Atomic<UInt64>(0)

    init() {}

    /// Actions the reducer ran (from clients and from effects, whether or not the state changed), since creation.
    public var reduced: UInt64 { reducedCount.load(ordering: .relaxed) }

    /// Actions dropped at reduce time (their effect run was cancelled, or the store was stopped), since creation.
    public var dropped: UInt64 { droppedCount.load(ordering: .relaxed) }

    func countReduced() { reducedCount.wrappingAdd(1, ordering: .relaxed) }

    func countDropped() { droppedCount.wrappingAdd(1, ordering: .relaxed) }
}
