/// Reconnect delays: exponential backoff with full jitter, bounded.
///
/// Attempt `n` (0 for the first reconnect) waits a uniformly random time in `0...min(maxMs, initialMs · 2ⁿ)` ms
/// ("full jitter": many clients cut at the same moment do not come back at the same moment). The attempt count
/// goes back to 0 once a connection has carried a message from the server.
public struct Backoff: Sendable, Equatable {
    /// The bound of the first delay, ms (≥ 1). Default 100.
    public var initialMs: Int
    /// The largest bound, ms (≥ initialMs). Default 5,000.
    public var maxMs: Int

    /// - Parameters:
    ///   - initialMs: ms, at least 1.
    ///   - maxMs: ms, at least `initialMs`.
    public init(initialMs: Int = 100, maxMs: Int = 5_000) {
        self.initialMs = max(initialMs, 1)
        self.maxMs = max(maxMs, self.initialMs)
    }

    /// The bound of attempt `attempt`'s delay: `min(maxMs, initialMs · 2^attempt)`, ms.
    public func ceilingMs(attempt: Int) -> Int {
        var ceiling = initialMs
        var step = 0
        while step < attempt, ceiling < maxMs {
            ceiling = ceiling > maxMs / 2 ? maxMs : ceiling * 2
            step += 1
        }
        return min(ceiling, maxMs)
    }

    /// A delay for attempt `attempt`, ms, drawn from `generator` in `0...ceilingMs(attempt:)`.
    public func delayMs(attempt: Int, using generator: inout some RandomNumberGenerator) -> Int {
        Int.random(in: 0...ceilingMs(attempt: attempt), using: &generator)
    }
}
