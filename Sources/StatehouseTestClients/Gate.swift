import Locking

/// A one-shot gate for tests: `wait()` suspends until `open()` has been called (before or after).
///
/// ## Thread safety
/// `Sendable`: any task or thread may call any member; the state sits behind one `Locked`.
public final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Locked(State())

    public init() {}

    /// Opens the gate: every waiter resumes, and later waits return at once.
    public func open() {
        let pending = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in pending { waiter.resume() }
    }

    /// Whether ``open()`` has been called.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Waits until the gate opens or `timeout` passes on the continuous clock (a deadline, not a delay: it returns as
    /// soon as the gate opens); returns whether it opened.
    public func wait(timeout: Duration) async -> Bool {
        let pending = Locked<CheckedContinuation<Bool, Never>?>(nil)
        let finish: @Sendable (Bool) -> Void = { opened in
            pending.withLock { continuation in
                defer { continuation = nil }
                return continuation
            }?.resume(returning: opened)
        }
        var deadline: Task<Void, Never>?
        let opened = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            pending.withLock { $0 = continuation }
            Task { await self.wait(); finish(true) }
            deadline = Task {
                try? await Task.sleep(for: timeout)
                finish(false)
            }
        }
        deadline?.cancel()
        return opened
    }

    /// Suspends until the gate is open (returns at once if it is).
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }
}
