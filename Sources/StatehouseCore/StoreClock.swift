/// The store's clock reduced to what the runtime needs: offsets (as `Duration`) from the moment the
/// store was created.
///
/// Working in offsets lets the store compute absolute deadlines on its actor (for example when a
/// reduce starts a `delayed(by:)` effect) and hand them to tasks, without keeping an existential
/// `Instant` around. A sleep whose deadline has already passed returns at once.
///
/// `ContinuousClock`, the default, is held inline (its origin instant, 16 bytes, no heap block); any
/// other clock is boxed once.
///
/// ## Thread safety
/// Immutable and `Sendable`; both methods may be called from any task.
struct StoreClock: Sendable {
    private enum Source: Sendable {
        case continuous(origin: ContinuousClock.Instant)
        case other(any OffsetClock)
    }

    private let source: Source

    init<C: Clock<Duration>>(_ clock: C) {
        if let continuous = clock as? ContinuousClock {
            source = .continuous(origin: continuous.now)
        } else {
            source = .other(OffsetClockBox(clock))
        }
    }

    /// The time elapsed on the clock since the store was created.
    func elapsed() -> Duration {
        switch source {
        case .continuous(let origin): origin.duration(to: .now)
        case .other(let clock): clock.elapsed()
        }
    }

    /// Sleeps until the given offset.
    ///
    /// - Throws: `CancellationError` if the task is cancelled first.
    func sleepUntil(_ offset: Duration) async throws {
        switch source {
        case .continuous(let origin):
            try await ContinuousClock().sleep(until: origin.advanced(by: offset), tolerance: nil)
        case .other(let clock):
            try await clock.sleepUntil(offset)
        }
    }
}

/// A clock measured in offsets from its creation (the boxed form of ``StoreClock``).
private protocol OffsetClock: AnyObject, Sendable {
    func elapsed() -> Duration
    func sleepUntil(_ offset: Duration) async throws
}

/// Any `Clock<Duration>` with its origin instant.
private final class OffsetClockBox<C: Clock<Duration>>: OffsetClock {
    let clock: C
    let origin: C.Instant

    init(_ clock: C) {
        self.clock = clock
        origin = clock.now
    }

    func elapsed() -> Duration { origin.duration(to: clock.now) }

    func sleepUntil(_ offset: Duration) async throws {
        try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil)
    }
}
