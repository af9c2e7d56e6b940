import Synchronization
public import Locking

/// How many actions a store has reduced and dropped since it was created, and how long its reduces took, readable
/// from any thread without a hop to the store's actor (metrics). Stored inline in the store (three words, and a
/// histogram made at the first reduce: an idle store's heap cost is budgeted, Tests/StatehouseServerTests/
/// StoreMemoryTests).
///
/// ## Thread safety
/// Sendable: atomic counters, bumped on the store's actor (relaxed adds per action; only the actor makes the
/// histogram), read anywhere.
public struct ActionCounts: ~Copyable, Sendable {
    private let reducedCount = Atomic<UInt64>(0)
    private let droppedCount = Atomic<UInt64>(0)
    /// The reduce-time histogram as the bits of a retained `Unmanaged<DurationHistogram>`, 0 before the first reduce.
    /// Not an `AtomicLazyReference`: its `load` runs unspecialized in the Synchronization library, looking generic
    /// metadata up on every call (callgrind: about 500 instructions per action).
    private let reduceTimesBits = Atomic<UInt>(0)

    init() {}

    /// Actions the reducer ran (from clients and from effects, whether or not the state changed), since creation.
    public var reduced: UInt64 { reducedCount.load(ordering: .relaxed) }

    /// Actions dropped at reduce time (their effect run was cancelled, or the store was stopped), since creation.
    public var dropped: UInt64 { droppedCount.load(ordering: .relaxed) }

    /// How long the reducer's `reduce` took per action (``DurationHistogram/reduceBoundsNs``); nil before the first.
    public var reduceDurations: DurationHistogram.Snapshot? {
        let bits = reduceTimesBits.load(ordering: .acquiring)
        guard bits != 0 else { return nil }
        return Self.histogram(bits)._withUnsafeGuaranteedRef { $0.snapshot() }
    }

    /// Counts one reduce that took `nanoseconds`.
    func countReduced(nanoseconds: UInt64) {
        reducedCount.wrappingAdd(1, ordering: .relaxed)
        var bits = reduceTimesBits.load(ordering: .acquiring)
        if bits == 0 {
            // The first reduce (only the store's actor writes): made once, released with the counts.
            let made = Unmanaged.passRetained(DurationHistogram(upperBoundsNs: DurationHistogram.reduceBoundsNs))
            bits = UInt(bitPattern: made.toOpaque())
            reduceTimesBits.store(bits, ordering: .releasing)
        }
        Self.histogram(bits)._withUnsafeGuaranteedRef { $0.record(nanoseconds: nanoseconds) }
    }

    private static func histogram(_ bits: UInt) -> Unmanaged<DurationHistogram> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }

    deinit {
        let bits = reduceTimesBits.load(ordering: .acquiring)
        if bits != 0 { Self.histogram(bits).release() }
    }

    func countDropped() { droppedCount.wrappingAdd(1, ordering: .relaxed) }
}
