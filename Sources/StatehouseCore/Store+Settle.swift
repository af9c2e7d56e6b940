extension Store {
    /// Enqueues `action` (FIFO like ``enqueue(_:completion:)``) and reports once the action and
    /// everything it started have finished, transitively: its effects, the actions they sent, the
    /// effects of those, and so on. Cancelled effects count as finished. No task is created per call.
    ///
    /// - Parameters:
    ///   - action: The action to reduce.
    ///   - timeout: Measured on the store's clock from this call. The action itself is always
    ///     reduced; the deadline only ends the wait.
    ///   - completion: Runs once, on the store's actor: `.success(snapshot)` when settled (the
    ///     snapshot at that moment), or `.failure(SettleTimeout)` carrying the snapshot at the
    ///     deadline. After a timeout the effects keep running. Keep it cheap. If the store is released
    ///     first (see "Lifetime" on ``Store``), it gets `.success` with the final snapshot, on the
    ///     executor the store is bound to, or else on the thread that released it.
    ///   - note: Journaled stores: travels with the action into its ``JournalRecord``.
    ///   - notWritten: Journaled stores: called instead of `completion` when the action's batch could not be written.
    public nonisolated func enqueueAndSettle(
        _ action: R.Action,
        timeout: Duration,
        note: (any AnyObject & Sendable)? = nil,
        notWritten: (@Sendable (any Error) -> Void)? = nil,
        completion: @escaping @Sendable (Result<Snapshot<R.State>, SettleTimeout<R.State>>) -> Void
    ) {
        let request = SettleRequest(
            deadline: clock.elapsed() + timeout, timeout: timeout, completion: completion, notWritten: notWritten)
        push(Envelope(payload: .action(action), settle: request, journal: .make(note: note, notWritten: nil)))
    }

    /// Enqueues `action` and suspends until it and every effect it started, transitively, have
    /// finished (see ``enqueueAndSettle(_:timeout:completion:)``).
    ///
    /// - Parameters:
    ///   - action: The action to reduce.
    ///   - timeout: Measured on the store's clock.
    /// - Returns: The snapshot when everything settled.
    /// - Throws: ``SettleTimeout`` with the snapshot at the deadline when `timeout` passes first;
    ///   the effects keep running.
    @discardableResult
    public nonisolated func sendAndSettle(
        _ action: R.Action,
        timeout: Duration
    ) async throws(SettleTimeout<R.State>) -> Snapshot<R.State> {
        let result = await withCheckedContinuation { continuation in
            enqueueAndSettle(action, timeout: timeout) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Opens a group with one count (held by the envelope being reduced).
    func openGroup(_ request: SettleRequest) -> SettleGroupID {
        nextSettleGroupID += 1
        let group = SettleGroupID(rawValue: nextSettleGroupID)
        settleGroups[group] = SettleGroup(pending: 1, request: request)
        watchTimeout(until: request.deadline)
        return group
    }

    /// Adds one count to `group` if it is still open.
    func retainGroup(_ group: SettleGroupID?) {
        guard let group else { return }
        settleGroups[group]?.pending += 1
    }

    /// Removes one count; a group left with none is settled and its completion called.
    /// No-op for groups already settled or timed out.
    func releaseGroup(_ group: SettleGroupID?) {
        guard let group, var record = settleGroups[group] else { return }
        record.pending -= 1
        if record.pending > 0 {
            settleGroups[group] = record
            return
        }
        settleGroups[group] = nil
        settle(record.request, group, .success(snapshot))
    }

    /// Makes sure one watcher task sleeps until `deadline` or earlier.
    ///
    /// One watcher serves all groups: it sleeps until the earliest deadline it was given, fails
    /// every group whose deadline has passed, and re-arms for the next one.
    private func watchTimeout(until deadline: Duration) {
        if let watcher = timeoutWatcher, watcher.deadline <= deadline { return }
        timeoutWatcher?.task.cancel()
        let clock = clock
        let task = Task { [weak self] in
            do {
                try await clock.sleepUntil(deadline)
            } catch {
                return
            }
            await self?.expireGroups()
        }
        timeoutWatcher = (task, deadline)
    }

    /// Fails every group whose deadline has passed; re-arms the watcher for the rest.
    private func expireGroups() {
        timeoutWatcher = nil
        let now = clock.elapsed()
        let expired = settleGroups.filter { $0.value.request.deadline <= now }
        for (group, record) in expired.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            settleGroups[group] = nil
            settle(record.request, group, .failure(SettleTimeout(snapshot: snapshot, timeout: record.request.timeout)))
        }
        if let next = settleGroups.values.map(\.request.deadline).min() {
            watchTimeout(until: next)
        }
    }

    /// The number of groups still waiting (for tests).
    package var openSettleGroupCount: Int {
        settleGroups.count
    }
}
