extension Duration {
    /// The duration in whole milliseconds, rounded up, never negative.
    var wholeMilliseconds: Int {
        let (seconds, attoseconds) = components
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) { return 0 }
        let ms = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int(clamping: ms)
    }
}

extension ContinuousClock.Instant {
    /// Milliseconds left until this instant (0 when it has passed).
    var millisecondsLeft: Int {
        ContinuousClock.now.duration(to: self).wholeMilliseconds
    }

    /// The instant `timeout` from now.
    static func after(_ timeout: Duration) -> ContinuousClock.Instant {
        ContinuousClock.now.advanced(by: timeout)
    }
}
