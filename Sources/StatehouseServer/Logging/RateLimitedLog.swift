import Synchronization
import Foundation
import Locking

/// A warning that may repeat in a flood (a refused connection, a failed accept): logged the first time, then at
/// most once per ``intervalSeconds``, each line saying how many occurrences it stands for, to its logger.
///
/// ## Thread safety
/// Sendable: every loop may record; the counts are behind a lock.
final class RateLimitedLog: Sendable {
    let intervalSeconds: Int
    let logger: Logger
    private let state = Locked(State())

    private struct State: Sendable {
        var lastLine: ContinuousClock.Instant?
        var unlogged = 0
    }

    init(logger: Logger, intervalSeconds: Int = 10) {
        self.logger = logger
        self.intervalSeconds = intervalSeconds
    }

    /// Counts one occurrence; logs `message(n)` as a warning when a line is due, `n` being the occurrences since the
    /// last line (this one included).
    func record(_ message: (Int) -> String) {
        let now = ContinuousClock.now
        let due = state.withLock { state -> Int? in
            state.unlogged += 1
            if let last = state.lastLine, now - last < .seconds(intervalSeconds) { return nil }
            state.lastLine = now
            defer { state.unlogged = 0 }
            return state.unlogged
        }
        if let count = due { logger.warning(message(count)) }
    }
}
