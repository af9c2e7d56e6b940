/// Batches and the output gate of a store with a ``StoreJournal`` (see there for the promise).
///
/// Lifecycle of a batch, per store: *open* (envelopes of a drain slice are handled; changes and noted actions are
/// recorded; with a gate, outputs are held) → *writing* (``StoreJournal/write`` called; with a gate the drain stops
/// until `done`) → *committed* (held outputs run in order, draining resumes) or *undone* (state and version restored,
/// held outputs failed). Without a gate a batch goes from open to written at once and outputs are never held.
extension Store {
    /// An output held by the gate until the batch it depends on is written.
    enum HeldOutput {
        /// Observers get this snapshot.
        case notify(Snapshot<R.State>)
        /// An envelope's completion (`nil`: dropped), with its `notWritten` handler.
        case completion(@Sendable (Snapshot<R.State>?) -> Void, Snapshot<R.State>?, notWritten: (@Sendable (any Error) -> Void)?)
        /// A settle group ended (settled or timed out).
        case settle(SettleRequest, SettleGroupID, Result<Snapshot<R.State>, SettleTimeout<R.State>>)
        /// Event observers get this event.
        case event(any Sendable)
    }

    /// A journaled store's journal and batches in progress (one heap object, made only for a journaled store).
    ///
    /// ## Thread safety
    /// Confined to the store's actor.
    final class Journaling {
        let journal: StoreJournal<R.Action, R.State>
        /// The batch of the current drain slice.
        var openBatch: JournalBatch?
        /// The batch whose write has not returned yet (gated stores only): the drain waits for it.
        var writingBatch: JournalBatch?
        /// Outputs the gate holds, in the order they were made.
        var heldOutputs: [HeldOutput] = []

        init(_ journal: StoreJournal<R.Action, R.State>) { self.journal = journal }
    }

    /// The batch being handled or written, and what undoing it needs.
    struct JournalBatch {
        var record: JournalRecord<R.Action, R.State>
        /// The state and version before the batch.
        let before: Snapshot<R.State>
        /// Runs and settle groups made after these ids belong to the batch.
        let runMark: UInt64
        let groupMark: UInt64
    }

    /// Whether outputs are held now: a gated batch is open or being written.
    var holdsOutputs: Bool {
        guard gatesOutput, let journaling else { return false }
        return journaling.openBatch != nil || journaling.writingBatch != nil
    }

    /// Opens a batch for this drain slice unless one is open (journaled stores only).
    func openBatchIfNeeded() {
        guard let journaling, journaling.openBatch == nil else { return }
        journaling.openBatch = JournalBatch(
            record: JournalRecord(snapshot: snapshot), before: snapshot, runMark: nextRunID, groupMark: nextSettleGroupID)
    }

    /// Records a change of the open batch (the version already bumped).
    func journalChange(_ cause: JournalRecord<R.Action, R.State>.Change.Cause) {
        journaling?.openBatch?.record.changes.append(.init(version: version, cause: cause))
    }

    /// Records a noted action of the open batch (after its reduce).
    func journalNote(_ note: any AnyObject & Sendable) {
        journaling?.openBatch?.record.noted.append(.init(note: note, snapshot: snapshot))
    }

    /// Ends the open batch: writes it (when it has something to write). Returns true when the drain must stop and
    /// wait for the write (a gated store); the write's `done` resumes it.
    func endBatch() -> Bool {
        guard let journaling, var batch = journaling.openBatch else { return false }
        journaling.openBatch = nil
        let journal = journaling.journal
        if batch.record.isEmpty {
            releaseHeldOutputs()
            return false
        }
        batch.record.snapshot = snapshot
        guard journal.gatesOutput else {
            journal.write(batch.record) { _ in }
            return false
        }
        journaling.writingBatch = batch
        journal.write(batch.record) { [self] error in
            switch home {
            case .bound(let executor): executor.execute { self.assumeIsolated { $0.batchWritten(error) } }
            case .pool: Task { await self.batchWritten(error) }
            }
        }
        return true
    }

    /// The write of the batch being written ended: outputs leave, or the batch is undone. Then draining resumes.
    func batchWritten(_ error: (any Error)?) {
        guard let journaling, let batch = journaling.writingBatch else { return }
        journaling.writingBatch = nil
        if let error {
            undo(batch, error)
        } else {
            releaseHeldOutputs()
        }
        drain()
    }

    private func releaseHeldOutputs() {
        guard let journaling, !journaling.heldOutputs.isEmpty else { return }
        let outputs = journaling.heldOutputs
        journaling.heldOutputs = []
        for output in outputs {
            switch output {
            case .notify(let snapshot): notifyObservers(snapshot)
            case .completion(let completion, let snapshot, _): completion(snapshot)
            case .settle(let request, _, let result): request.completion(result)
            case .event(let event): deliverEvent(event)
            }
        }
    }

    /// A failed write: the state goes back to before the batch, the batch's effects are cancelled and its top-level
    /// follow-up actions dropped (a reset epoch), its senders told, and its versions never shown.
    private func undo(_ batch: JournalBatch, _ error: any Error) {
        state = batch.before.state
        version = batch.before.version
        resetEpoch += 1
        for run in runs.compactMap({ $0.value.parent == nil && $0.key.rawValue > batch.runMark ? $0.key : nil }) {
            cancelRun(run)
        }
        for (group, record) in settleGroups where group.rawValue > batch.groupMark {
            settleGroups[group] = nil
            fail(record.request, error)
        }
        let outputs = journaling?.heldOutputs ?? []
        journaling?.heldOutputs = []
        for output in outputs {
            switch output {
            case .notify, .event: break
            case .completion(let completion, _, let notWritten):
                if let notWritten { notWritten(error) } else { completion(nil) }
            case .settle(let request, let group, let result):
                if group.rawValue > batch.groupMark {
                    fail(request, error)
                } else {
                    // An older action's effects settled meanwhile: its outcome stands, with the state as it is now.
                    switch result {
                    case .success: request.completion(.success(snapshot))
                    case .failure(let timeout):
                        request.completion(.failure(SettleTimeout(snapshot: snapshot, timeout: timeout.timeout)))
                    }
                }
            }
        }
        log("store \(name): a batch of \(batch.record.changes.count) change(s) could not be written and was undone "
            + "(back to version \(version)): \(error)")
    }

    private func fail(_ request: SettleRequest, _ error: any Error) {
        if let notWritten = request.notWritten {
            notWritten(error)
        } else {
            request.completion(.success(snapshot))
        }
    }

    // MARK: Outputs, through the gate

    /// Observers get `snapshot` now, or once the batch is written.
    func publish(_ snapshot: Snapshot<R.State>) {
        if holdsOutputs { journaling?.heldOutputs.append(.notify(snapshot)) } else { notifyObservers(snapshot) }
    }

    /// An envelope's completion runs now, or once the batch is written.
    func complete(_ envelope: Envelope, _ snapshot: Snapshot<R.State>?) {
        guard let completion = envelope.completion else { return }
        if holdsOutputs {
            journaling?.heldOutputs.append(.completion(completion, snapshot, notWritten: envelope.notWritten))
        } else {
            completion(snapshot)
        }
    }

    /// A settle group's completion runs now, or once the batch is written.
    func settle(_ request: SettleRequest, _ group: SettleGroupID, _ result: Result<Snapshot<R.State>, SettleTimeout<R.State>>) {
        if holdsOutputs { journaling?.heldOutputs.append(.settle(request, group, result)) } else { request.completion(result) }
    }

    /// Event observers get `event` now, or once the batch is written (in stream order with the states).
    func emit(_ event: any Sendable) {
        if holdsOutputs { journaling?.heldOutputs.append(.event(event)) } else { deliverEvent(event) }
    }
}
