extension Store {
    /// Enqueues a reset, FIFO with actions: every action enqueued before it is reduced first.
    ///
    /// When its turn comes, the store cancels every effect (no action or event produced by them
    /// is handled afterwards, even one already queued), closes every throttle window, and starts
    /// ``Reducer/bind()`` again if the store was started. Settle waits whose effects were cancelled
    /// complete as settled. With ``ResetMode/restoringInitialState`` it also restores ``initialState``,
    /// bumping the version and notifying observers only if that changed the state (journaled stores write
    /// the change); with ``ResetMode/keepingState`` the state and version stay as they are, and nothing is
    /// written or notified.
    ///
    /// - Parameters:
    ///   - mode: Whether the state goes back to ``initialState`` or stays.
    ///   - completion: Runs on the actor right after the reset with the snapshot then.
    ///   - notWritten: Journaled stores: called instead of `completion` when the reset's batch could not be written
    ///     (the reset is then undone).
    public nonisolated func enqueueReset(
        _ mode: ResetMode,
        completion: (@Sendable (Snapshot<R.State>) -> Void)? = nil, notWritten: (@Sendable (any Error) -> Void)? = nil
    ) {
        pushControl(.reset(mode), completion: completion, notWritten: notWritten)
    }

    /// No longer available: choose the mode.
    @available(
        *, unavailable,
        message: "OneWay's reset() kept the state; choose: enqueueReset(.keepingState) does that, enqueueReset(.restoringInitialState) also restores the initial state"
    )
    public nonisolated func enqueueReset(
        completion: (@Sendable (Snapshot<R.State>) -> Void)? = nil, notWritten: (@Sendable (any Error) -> Void)? = nil
    ) {
        fatalError("unavailable")
    }

    /// Queues a reset or stop with a completion that gets the snapshot after it.
    nonisolated func pushControl(
        _ payload: Envelope.Payload, completion: (@Sendable (Snapshot<R.State>) -> Void)?,
        notWritten: (@Sendable (any Error) -> Void)? = nil
    ) {
        var done: (@Sendable (Snapshot<R.State>?) -> Void)?
        if let completion {
            done = { snapshot in
                if let snapshot { completion(snapshot) }
            }
        }
        push(Envelope(payload: payload, completion: done, journal: .make(note: nil, notWritten: notWritten)))
    }

    /// Resets the store (see ``enqueueReset(_:completion:notWritten:)``) and waits for it.
    ///
    /// - Parameter mode: Whether the state goes back to ``initialState`` or stays.
    /// - Returns: The snapshot right after the reset.
    @discardableResult
    public nonisolated func reset(_ mode: ResetMode) async -> Snapshot<R.State> {
        await withCheckedContinuation { continuation in
            enqueueReset(mode) { continuation.resume(returning: $0) }
        }
    }

    /// No longer available: choose the mode.
    @available(
        *, unavailable,
        message: "OneWay's reset() kept the state; choose: reset(.keepingState) does that, reset(.restoringInitialState) also restores the initial state"
    )
    @discardableResult
    public nonisolated func reset() async -> Snapshot<R.State> {
        fatalError("unavailable")
    }

    /// The reset itself, on the actor inside the drain.
    func performReset(_ mode: ResetMode) {
        resetEpoch += 1
        let topLevel = runs.compactMap { $0.value.parent == nil ? $0.key : nil }
        for run in topLevel {
            cancelRun(run)
        }
        closeAllThrottleWindows()
        let changed = mode == .restoringInitialState && state != initialState
        if changed {
            state = initialState
            version += 1
            journalChange(.reset(initialState))
            journaling?.openBatch?.record.endsWithReset = true
            publish(snapshot)
        }
        if !logging.isEmpty { logReset(mode, changed: changed) }
        if isStarted {
            startBind()
        }
    }
}
