import Locking

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

    /// ``enqueue(_:completion:)`` for callers that take the drop themselves: `completion` gets `nil` when the
    /// action is dropped (its run cancelled, or the store stopped), so no wrapper closure is made per action.
    ///
    /// Journaled stores (see ``StoreJournal``): `note` travels with the action into its ``JournalRecord``, and
    /// `notWritten`, when given, is called instead of `completion` if the action's batch could not be written.
    public nonisolated func enqueue(
        _ action: R.Action, note: (any AnyObject & Sendable)? = nil,
        handledOrDropped completion: @escaping @Sendable (Snapshot<R.State>?) -> Void,
        notWritten: (@Sendable (any Error) -> Void)? = nil
    ) {
        push(Envelope(
            payload: .action(action), completion: completion, journal: .make(note: note, notWritten: notWritten)))
    }

    /// Enqueues `action` and suspends until it has been reduced.
    ///
    /// - Parameter action: The action to reduce.
    /// - Returns: The snapshot right after this action was reduced (later actions not yet applied); discardable, so
    ///   `await store.send(.increment)` reads as it does with OneWay.
    @discardableResult
    public nonisolated func send(_ action: R.Action) async -> Snapshot<R.State> {
        await withCheckedContinuation { continuation in
            enqueue(action) { continuation.resume(returning: $0) }
        }
    }

    /// Appends to the mailbox and schedules a drain if none is scheduled.
    nonisolated func push(_ envelope: Envelope) {
        if mailbox.push(envelope) { scheduleDrain() }
    }

    /// Runs ``drain()`` soon: a task on the pool, or a job of the executor the store is bound to (no task, and no
    /// wake-up when the caller is that executor's own thread).
    private nonisolated func scheduleDrain() {
        switch home {
        case .pool:
            Task { await self.drain() }
        case .bound(let executor):
            executor.execute { self.assumeIsolated { $0.drain() } }
        }
    }

    /// How many envelopes one drain handles before it lets the jobs queued meanwhile run (on an event loop: the
    /// messages its changes produced, so a batch of 10,000 actions never holds 10,000 messages at once).
    static var drainSlice: Int { 256 }

    /// Handles queued envelopes in FIFO order, at most ``drainSlice`` of them, and fewer once the slice has run for
    /// the ``StoreExecutor/drainSliceBudget`` of the executor the store is bound to (an event loop's 2 ms: slow
    /// reduces or big encodes then hold a loop about that long, not 256 times as long; the clock is read every 8
    /// envelopes), then schedules itself again if there may be more; when the mailbox is found empty the drain ends
    /// and wakes ``untilIdle()`` waiters if the store is idle.
    ///
    /// Never suspends: isolated code (an effect's hop to the actor) can run between slices, never inside one.
    func drain() {
        if waitsForWrites { return }  // a gated store waits for a batch's write; batchWritten() drains again
        openBatchIfNeeded()
        var handled = 0
        let budget: Duration? = if case .bound(let executor) = home { executor.drainSliceBudget } else { nil }
        let start = budget == nil ? nil : ContinuousClock.now
        while handled < Self.drainSlice {
            if handled & 7 == 0, handled > 0, let budget, let start, ContinuousClock.now - start > budget { break }
            if backlogStart == backlog.count {
                backlog = mailbox.takeAll()  // empty: the drain is no longer scheduled
                backlogStart = 0
                if backlog.isEmpty {
                    if endBatch() { return }
                    resumeIdleWaitersIfIdle()
                    return
                }
            }
            let envelope = backlog[backlogStart]
            if mustWriteBeforeNext { break }
            backlogStart += 1
            process(envelope)
            handled += 1
            if let journaling, journaling.openBatch?.record.endsWithReset == true { break }  // snapshotted at the reset
        }
        if endBatch() { return }
        // The rest of the backlog waits for the next slice (handled entries go when it is replaced: no shifting).
        scheduleDrain()
    }

    private func process(_ envelope: Envelope) {
        switch envelope.payload {
        case .action(let action):
            reduce(action, envelope)
        case .event(let event):
            let stale = isStale(envelope)
            if !stale {
                emit(event)
            }
            releaseHolds(of: envelope)
            complete(envelope, stale ? nil : snapshot)
        case .start:
            start()
            complete(envelope, snapshot)
        case .reset(let mode):
            performReset(mode)
            complete(envelope, snapshot)
        case .stop:
            performStop()
            complete(envelope, snapshot)
        }
    }

    /// Drops `action` if its run is gone; otherwise reduces it, versions and notifies, reports it
    /// to taps, starts the returned effect (counted in the action's settle group), then calls the
    /// envelope's completion.
    private func reduce(_ action: R.Action, _ envelope: Envelope) {
        if isStale(envelope) || isStopped {
            actionCounts.countDropped()
            report(action, envelope, dropped: true)
            if !logging.isEmpty { logAction(action, envelope, dropped: true, changed: false) }
            releaseHolds(of: envelope)
            complete(envelope, nil)
            return
        }
        var ownGroup: SettleGroupID?
        if let request = envelope.settle {
            ownGroup = openGroup(request)
        }
        let previous = state
        let reduceStart = MonotonicClock.nowNs()
        let effect = reducer.reduce(state: &state, action: action)
        actionCounts.countReduced(nanoseconds: MonotonicClock.nowNs() &- reduceStart)
        let changed = state != previous
        if changed {
            version += 1
            if journaling != nil { journalChange(.action(action, fromEffect: envelope.fromEffect)) }
            publish(snapshot)
        }
        if let note = envelope.note { journalNote(note) }
        report(action, envelope, dropped: false)
        if !logging.isEmpty { logAction(action, envelope, dropped: false, changed: changed) }
        currentGroup = ownGroup ?? envelope.group ?? envelope.origin.flatMap { runs[$0]?.group }
        start(effect, parent: nil)
        currentGroup = nil
        releaseHolds(of: envelope)
        if let ownGroup {
            releaseGroup(ownGroup)
        }
        complete(envelope, snapshot)
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
