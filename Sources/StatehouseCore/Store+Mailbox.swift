extension Store {
    /// One queued action with where it came from and who waits for it.
    struct Envelope: Sendable {
        /// The action to reduce.
        let action: R.Action
        /// The effect run that produced it; `nil` for actions from outside (never dropped).
        let origin: RunID?
        /// Whether this envelope holds a reference on `origin` (top-level `.just` inside a
        /// cancellable) that must be released once it is reduced or dropped.
        let holdsRun: Bool
        /// Called on the actor right after the reduce with the snapshot, or with `nil` if dropped.
        let completion: (@Sendable (Snapshot<R.State>?) -> Void)?
    }

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
        push(Envelope(action: action, origin: nil, holdsRun: false, completion: done))
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

    /// Appends to the mailbox and schedules a drain if none is scheduled.
    nonisolated func push(_ envelope: Envelope) {
        if mailbox.push(envelope) {
            Task { await self.drain() }
        }
    }

    /// Reduces queued envelopes batch by batch until the mailbox is empty.
    ///
    /// Never suspends, so no other isolated code interleaves with a batch.
    func drain() {
        while true {
            let batch = mailbox.takeAll()
            if batch.isEmpty { return }
            for envelope in batch {
                process(envelope)
            }
        }
    }

    /// Drops `envelope` if its run is gone; otherwise reduces it, versions and notifies, and starts
    /// the returned effect.
    private func process(_ envelope: Envelope) {
        if let origin = envelope.origin, !isLive(origin) {
            droppedActions += 1
            envelope.completion?(nil)
            return
        }
        let previous = state
        let effect = reducer.reduce(state: &state, action: envelope.action)
        if state != previous {
            version += 1
            notifyObservers(snapshot)
        }
        start(effect, parent: nil)
        if envelope.holdsRun, let origin = envelope.origin {
            release(origin)
        }
        envelope.completion?(snapshot)
    }
}
