extension Store {
    /// Enqueues `action` from any thread and returns at once.
    ///
    /// FIFO with every other ``enqueue(_:completion:)``, ``send(_:)`` and effect-produced action.
    ///
    /// - Parameters:
    ///   - action: The action to reduce.
    ///   - completion: Optional; runs on the store's actor right after *this* action was reduced
    ///     (state updated, observers called, its effect started), with the snapshot at that moment.
    ///     Keep it cheap: it runs inside the drain.
    public nonisolated func enqueue(
        _ action: R.Action,
        completion: (@Sendable (Snapshot<R.State>) -> Void)? = nil
    ) {
        var done: (@Sendable (Snapshot<R.State>?) -> Void)?
        if let completion {
            done = { snapshot in
                if let snapshot { completion(snapshot) }
            }
        }
        push(Envelope(payload: .action(action), completion: done))
    }

    /// Enqueues `action` and suspends until it has been reduced.
    ///
    /// - Parameter action: The action to reduce.
    /// - Returns: The snapshot right after this action was reduced (later actions not yet applied).
    public nonisolated func send(_ action: R.Action) async -> Snapshot<R.State> {
        await withCheckedContinuation { continuation in
            enqueue(action) { continuation.resume(returning: $0) }
        }
    }

    /// Appends to the mailbox and schedules a drain if none is scheduled: a task on the pool, or a job of the
    /// executor the store is bound to (no task, and no wake-up when the caller is that executor's own thread).
    nonisolated func push(_ envelope: Envelope) {
        guard mailbox.push(envelope) else { return }
        switch home {
        case .pool:
            Task { await self.drain() }
        case .bound(let executor):
            executor.execute { self.assumeIsolated { $0.drain() } }
        }
    }

    /// Handles queued envelopes batch by batch until the mailbox is empty, then wakes
    /// ``untilIdle()`` waiters if the store is idle.
    ///
    /// Never suspends, so no other isolated code interleaves with a batch.
    func drain() {
        while true {
            let batch = mailbox.takeAll()
            if batch.isEmpty { break }
            for envelope in batch {
                process(envelope)
            }
        }
        resumeIdleWaitersIfIdle()
    }

    private func process(_ envelope: Envelope) {
        switch envelope.payload {
        case .action(let action):
            reduce(action, envelope)
        case .event(let event):
            let stale = isStale(envelope)
            if !stale {
                deliverEvent(event)
            }
            releaseHolds(of: envelope)
            envelope.completion?(stale ? nil : snapshot)
        case .reset:
            performReset()
            envelope.completion?(snapshot)
        case .stop:
            performStop()
            envelope.completion?(snapshot)
        }
    }

    /// Drops `action` if its run is gone; otherwise reduces it, versions and notifies, reports it
    /// to taps, starts the returned effect (counted in the action's settle group), then calls the
    /// envelope's completion.
    private func reduce(_ action: R.Action, _ envelope: Envelope) {
        if isStale(envelope) || isStopped {
            droppedActions += 1
            report(action, envelope, dropped: true)
            releaseHolds(of: envelope)
            envelope.completion?(nil)
            return
        }
        var ownGroup: SettleGroupID?
        if let request = envelope.settle {
            ownGroup = openGroup(request)
        }
        let previous = state
        let effect = reducer.reduce(state: &state, action: action)
        if state != previous {
            version += 1
            notifyObservers(snapshot)
        }
        report(action, envelope, dropped: false)
        currentGroup = ownGroup ?? envelope.group ?? envelope.origin.flatMap { runs[$0]?.group }
        start(effect, parent: nil)
        currentGroup = nil
        releaseHolds(of: envelope)
        if let ownGroup {
            releaseGroup(ownGroup)
        }
        envelope.completion?(snapshot)
    }

    private func report(_ action: R.Action, _ envelope: Envelope, dropped: Bool) {
        guard !taps.isEmpty else { return }
        let reduced = ReducedAction(
            action: action,
            fromEffect: envelope.fromEffect,
            dropped: dropped,
            version: version
        )
        for tap in taps {
            tap(reduced)
        }
    }
}
