internal import CLibUV

/// A one-shot or repeating libuv timer.
///
/// ## Thread safety
/// Loop-confined: create, start, stop and close it on its loop's thread only.
public final class LoopTimer: LoopHandleOwner, @unchecked Sendable {
    private let handle: UnsafeMutablePointer<uv_timer_t>
    private let loop: EventLoop
    /// Loop thread only (see Thread safety). Checked accesses: a timer is armed a few times per connection, not per
    /// request (issue 14: 4 starts in 12,000 requests), so `@exclusivity(unchecked)` bought nothing here.
    private var action: (() -> Void)?
    private var closing = false

    /// Creates a stopped timer on `loop`. Call on the loop thread.
    public init(loop: EventLoop) {
        loop.preconditionInLoop()
        self.loop = loop
        handle = .allocate(capacity: 1)
        uv_timer_init(loop.uvLoop, handle)
        loop.register(self, handle: cuv_timer_as_handle(handle))
    }

    /// Fires `action` after `delayMs` milliseconds, then every `repeatMs` milliseconds when that is non-zero.
    /// Restarting replaces the previous schedule.
    public func start(delayMs: UInt64, repeatMs: UInt64 = 0, _ action: @escaping () -> Void) {
        loop.assertInLoop()
        guard !closing else { return }
        self.action = action
        start(delayMs: delayMs, repeatMs: repeatMs)
    }

    /// Starts the timer again with the action of the last ``start(delayMs:repeatMs:_:)`` (no new closure).
    public func start(delayMs: UInt64, repeatMs: UInt64 = 0) {
        loop.assertInLoop()
        guard !closing, action != nil else { return }
        uv_timer_start(handle, { timer in
            guard let raw = timer?.pointee.data else { return }
            Unmanaged<LoopTimer>.fromOpaque(raw).takeUnretainedValue().action?()
        }, delayMs, repeatMs)
    }

    /// Stops the timer; it can be started again.
    public func stop() {
        loop.assertInLoop()
        if !closing { uv_timer_stop(handle) }
    }

    /// Stops and closes the timer for good.
    public func close() { closeHandle() }

    func closeHandle() {
        loop.assertInLoop()
        guard !closing else { return }
        closing = true
        action = nil
        loop.close(cuv_timer_as_handle(handle))
    }

    deinit { handle.deallocate() }
}
