extension Store {
    /// Enqueues a reset, FIFO with actions: every action enqueued before it is reduced first.
    ///
    /// When its turn comes, the store cancels every effect (no action or event produced by them
    /// is handled afterwards, even one already queued), closes every throttle window, restores the
    /// initial state given to ``init(reducer:state:name:clock:logger:)``, bumps the version and
    /// notifies observers only if that changed the state, and starts ``Reducer/bind()`` again if
    /// the store was started. Settle waits whose effects were cancelled complete as settled.
    ///
    /// - Parameter completion: Runs on the actor right after the reset with the snapshot then.
    /// - Parameter notWritten: Journaled stores: called instead of `completion` when the reset's batch could not be
    ///   written (the reset is then undone).
    public nonisolated func enqueueReset(
        completion: (@Sendable (Snapshot<R.State>) -> Void)? = nil, notWritten: (@Sendable (any Error) -> Void)? = nil
    ) {
        pushControl(.reset, completion: completion, notWritten: notWritten)
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

    /// Resets the store (see ``enqueueReset(completion:)``) and waits for it.
    ///
    /// - Returns: The snapshot right after the reset.
    public nonisolated func reset() async -> Snapshot<R.State> {
        await withCheckedContinuation { continuation in
            enqueueReset { continuation.resume(returning: $0) }
        }
    }

    /// The reset itself, on the actor inside the drain.
    func performReset() {
        resetEpoch += 1
        let topLevel = runs.compactMap { $0.value.parent == nil ? $0.key : nil }
        for run in topLevel {
            cancelRun(run)
        }
        closeAllThrottleWindows()
        let changed = state != initialState
        if changed {
            state = initialState
            version += 1
            journalChange(.reset(initialState))
            journaling?.openBatch?.record.endsWithReset = true
            publish(snapshot)
        }
        if !logging.isEmpty { logReset(changed: changed) }
        if isStarted {
            start(reducer.bind(), parent: nil)
        }
    }
}
