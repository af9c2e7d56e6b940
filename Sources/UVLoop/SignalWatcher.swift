internal import CLibUV

/// Watches a POSIX signal (SIGINT, SIGTERM, SIGHUP) on the loop thread.
///
/// ## Thread safety
/// Loop-confined: create and close it on its loop's thread only; `onSignal` runs there.
public final class SignalWatcher: LoopHandleOwner, @unchecked Sendable {
    private let handle: UnsafeMutablePointer<uv_signal_t>
    private let loop: EventLoop
    private var onSignal: (() -> Void)?
    private var closing = false

    /// Starts watching `signal` (e.g. `SIGTERM`) and calls `onSignal` each time it arrives.
    public init(loop: EventLoop, signal: Int32, onSignal: @escaping () -> Void) {
        loop.preconditionInLoop()
        self.loop = loop
        self.onSignal = onSignal
        handle = .allocate(capacity: 1)
        uv_signal_init(loop.uvLoop, handle)
        loop.register(self, handle: cuv_signal_as_handle(handle))
        uv_signal_start(handle, { raw, _ in
            guard let owner = raw?.pointee.data else { return }
            Unmanaged<SignalWatcher>.fromOpaque(owner).takeUnretainedValue().onSignal?()
        }, signal)
    }

    /// Stops watching.
    public func close() { closeHandle() }

    func closeHandle() {
        loop.assertInLoop()
        guard !closing else { return }
        closing = true
        onSignal = nil
        loop.close(cuv_signal_as_handle(handle))
    }

    deinit { handle.deallocate() }
}

/// Makes writes to a peer that has reset the connection return `EPIPE` instead of killing the process, and
/// unblocks SIGINT, SIGTERM and SIGHUP on the calling thread (threads started later inherit it), since a parent process
/// may have spawned us with them blocked. Call on the main thread before starting loops.
public func prepareProcessSignals() { cuv_prepare_signals() }
