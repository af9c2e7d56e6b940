/// The store's clock reduced to what the runtime needs: offsets (as `Duration`) from the moment the
/// store was created.
///
/// Working in offsets lets the store compute absolute deadlines on its actor (for example when a
/// reduce starts a `delayed(by:)` effect) and hand them to tasks, without keeping an existential
/// `Instant` around. A sleep whose deadline has already passed returns at once.
///
/// ## Thread safety
/// Immutable and `Sendable`; both closures may be called from any task.
struct StoreClock: Sendable {
    /// The time elapsed on the clock since the store was created.
    let elapsed: @Sendable () -> Duration
    /// Sleeps until the given offset; throws `CancellationError` if the task is cancelled first.
    let sleepUntil: @Sendable (Duration) async throws -> Void

    init<C: Clock<Duration>>(_ clock: C) {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleepUntil = { offset in
            try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil)
        }
    }
}
