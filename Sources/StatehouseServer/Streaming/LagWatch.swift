import UVLoop

/// The slow-consumer lag rule's clock, shared by WebSocket and SSE sessions: started when a subscriber falls behind
/// (its connection is write-paused), stopped when the connection is writable again; firing means the subscriber
/// stayed behind for `streams.maxLagSeconds`, whether or not new messages came meanwhile (WebSocket: close 4008;
/// SSE: disconnect).
///
/// Lifecycle: `idle ──start──▶ running ──stop──▶ idle`, `running ──expired──▶ idle`; ``close()`` ends it for good.
/// One timer per session, made at the first fall and restarted after (no closure per restart).
///
/// ## Thread safety
/// Loop-confined, like its session.
struct LagWatch {
    private var timer: LoopTimer?
    /// Whether the clock runs (the subscriber is behind).
    private(set) var isRunning = false

    /// Starts the clock unless it runs already; `expired` (the same closure every time) runs on the loop after
    /// `seconds` seconds unless ``stop()`` came first.
    mutating func start(on loop: EventLoop, seconds: Int, _ expired: @escaping () -> Void) {
        loop.assertInLoop()
        guard !isRunning else { return }
        isRunning = true
        let delayMs = UInt64(seconds) * 1000
        if let timer { return timer.start(delayMs: delayMs) }
        let timer = LoopTimer(loop: loop)
        self.timer = timer
        timer.start(delayMs: delayMs, expired)
    }

    /// The subscriber caught up: the clock stops (and starts from zero at the next fall).
    mutating func stop() {
        guard isRunning else { return }
        isRunning = false
        timer?.stop()
    }

    /// Marks the clock stopped after it fired (the timer is one-shot).
    mutating func expired() { isRunning = false }

    /// Closes the timer for good (the session has closed).
    mutating func close() {
        isRunning = false
        timer?.close()
        timer = nil
    }
}
