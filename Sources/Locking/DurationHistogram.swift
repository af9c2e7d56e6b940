import Synchronization

/// Durations counted by bucket, for a Prometheus histogram (prometheus.io, *Metric types*: buckets of observations
/// less than or equal to each upper bound, their count and their sum).
///
/// ```swift
/// let reduceTimes = DurationHistogram(upperBoundsNs: DurationHistogram.reduceBoundsNs)
/// let start = MonotonicClock.nowNs()
/// …
/// reduceTimes.record(nanoseconds: MonotonicClock.nowNs() - start)
/// reduceTimes.snapshot()   // cumulative counts per bound, count, sum in ns
/// ```
///
/// ## Thread safety
/// Sendable: atomic counters (relaxed). ``record(nanoseconds:)`` from any thread costs two atomic adds; a
/// ``snapshot()`` taken while others record may see a count without its sum (each counter is exact on its own).
public final class DurationHistogram: Sendable {
    /// The most upper bounds (one more bucket counts what is above the last).
    public static let maxBounds = 15

    /// Bounds for work done in one go, e.g. one reduce: 1 µs to 1 s.
    public static let reduceBoundsNs: [UInt64] = [
        1_000, 5_000, 10_000, 50_000, 100_000, 500_000, 1_000_000, 5_000_000, 10_000_000, 50_000_000, 100_000_000,
        500_000_000, 1_000_000_000,
    ]

    /// Bounds for one event loop turn: 10 µs to 1 s.
    public static let turnBoundsNs: [UInt64] = [
        10_000, 50_000, 100_000, 500_000, 1_000_000, 5_000_000, 10_000_000, 50_000_000, 100_000_000, 500_000_000,
        1_000_000_000,
    ]

    /// The buckets' upper bounds in nanoseconds, ascending (at most ``maxBounds``).
    public var upperBoundsNs: [UInt64] { (0..<boundCount).map { bounds[$0] } }
    /// The bounds inline (no array to reach through on every record), the unused ones `UInt64.max`.
    private let bounds: InlineArray<15, UInt64>
    private let boundCount: Int
    /// Observations per bucket, not cumulative: bucket `i` counts those in (bound `i-1`, bound `i`]; the one after the
    /// last bound counts the rest.
    private let buckets: InlineArray<16, Atomic<UInt64>>
    private let sumNs = Atomic<UInt64>(0)

    /// A histogram with these upper bounds (ascending, at most ``maxBounds``).
    public init(upperBoundsNs: [UInt64]) {
        precondition(upperBoundsNs.count <= Self.maxBounds && upperBoundsNs == upperBoundsNs.sorted())
        bounds = InlineArray { $0 < upperBoundsNs.count ? upperBoundsNs[$0] : .max }
        boundCount = upperBoundsNs.count
        buckets = InlineArray { _ in Atomic(0) }
    }

    /// Counts one duration of `nanoseconds`.
    public func record(nanoseconds: UInt64) {
        var index = 0
        while index < boundCount, nanoseconds > bounds[unchecked: index] { index += 1 }
        buckets[index].wrappingAdd(1, ordering: .relaxed)
        sumNs.wrappingAdd(nanoseconds, ordering: .relaxed)
    }

    /// What was counted so far.
    public struct Snapshot: Sendable, Equatable {
        /// Per upper bound (ns), the observations at or below it (cumulative, as the `_bucket{le=…}` samples are).
        public var cumulativeCounts: [(upperBoundNs: UInt64, count: UInt64)]
        /// Every observation (the `+Inf` bucket and `_count`).
        public var count: UInt64
        /// Their sum in nanoseconds (`_sum`, in seconds once divided).
        public var sumNs: UInt64

        public static func == (lhs: Snapshot, rhs: Snapshot) -> Bool {
            lhs.count == rhs.count && lhs.sumNs == rhs.sumNs
                && lhs.cumulativeCounts.elementsEqual(rhs.cumulativeCounts) { $0 == $1 }
        }
    }

    /// The counts so far, cumulative per bound.
    public func snapshot() -> Snapshot {
        var cumulative: [(upperBoundNs: UInt64, count: UInt64)] = []
        cumulative.reserveCapacity(boundCount)
        var total: UInt64 = 0
        for index in 0..<boundCount {
            total &+= buckets[index].load(ordering: .relaxed)
            cumulative.append((bounds[index], total))
        }
        total &+= buckets[boundCount].load(ordering: .relaxed)
        return Snapshot(cumulativeCounts: cumulative, count: total, sumNs: sumNs.load(ordering: .relaxed))
    }
}
