/// Batches and the output gate of a store with a ``StoreJournal`` (see there for the promise).
///
/// Lifecycle of a batch, per store: *open* (envelopes of a drain slice are handled; changes and noted actions are
/// recorded; with a gate, outputs are held with the batch) → *writing* (``StoreJournal/write`` called) → *committed*
/// (its held outputs run in order) or *undone* (state and version restored, held outputs failed). With a gate, up to
/// ``batchesInFlight`` batches are being written at once: the next batch is reduced while the one before it commits
/// (so one fsync's wait is filled with the next batch's work), and outputs leave strictly in batch order. If a batch
/// fails, every later one, reduced on top of it, is undone with it (the database refuses a batch that does not
/// continue its journal, so none of them can be committed either). Without a gate a batch goes from open to written
/// at once and outputs are never held.
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

    /// How many batches of a gated store may be being written at once: 2 (one committing, the next queued behind it).
    static var batchesInFlight: Int { 2 }

    /// A journaled store's journal and batches in progress (one heap object, made only for a journaled store).
    ///
    /// ## Thread safety
    /// Confined to the store's actor (which serializes every access: no run-time exclusivity checks). Durable stores
    /// only, touched once per batch like the store's own fields; not measured on its own (issue 14's callgrind runs
    /// use in-memory stores).
    final class Journaling {
        let journal: StoreJournal<R.Action, R.State>
        /// The batch of the current drain slice.
        @exclusivity(unchecked) var openBatch: JournalBatch?
        /// Batches whose write has not returned yet, oldest first (gated stores only).
        @exclusivity(unchecked) var writing: [JournalBatch] = []
        /// Numbers the batches written, so a late answer for an undone batch is known.
        @exclusivity(unchecked) var nextSequence: UInt64 = 0

        init(_ journal: StoreJournal<R.Action, R.State>) { self.journal = journal }
    }

    /// The batch being handled or written, what undoing it needs, and the outputs that wait for it.
    struct JournalBatch {
        var record: JournalRecord<R.Action, R.State>
        /// The state and version before the batch.
        let before: Snapshot<R.State>
        /// Runs and settle groups made after these ids belong to the batch.
        let runMark: UInt64
        let groupMark: UInt64
        /// Outputs made while it was open, or, once it is the newest being written, made meanwhile.
        var outputs: [HeldOutput] = []
        var sequence: UInt64 = 0
    }

    /// Whether outputs are held now: a gated batch is open or being written.
    var holdsOutputs: Bool {
        guard gatesOutput, let journaling else { return false }
        return journaling.openBatch != nil || !journaling.writing.isEmpty
    }

    /// Holds `output` with the open batch, or with the newest batch being written.
    private func hold(_ output: HeldOutput) {
        guard let journaling else { return }
        if journaling.openBatch != nil {
            journaling.openBatch?.outputs.append(output)
        } else {
            journaling.writing[journaling.writing.count - 1].outputs.append(output)
        }
    }

    /// Whether the drain must wait for writes before going on: as many batches as allowed are being written.
    var waitsForWrites: Bool {
        guard let journaling else { return false }
        return journaling.writing.count >= Self.batchesInFlight
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

    /// Whether the open batch, and every batch being written, must be written before the next envelope is handled:
    /// a stop comes after every write of the store.
    var mustWriteBeforeNext: Bool {
        guard let journaling, journaling.openBatch?.record.isEmpty == false || !journaling.writing.isEmpty else {
            return false
        }
        return stopIsNext
    }

    /// Ends the open batch: writes it (when it has something to write). Returns true when the drain must stop and
    /// wait (a gated store with ``batchesInFlight`` batches being written, or a stop waiting for them); a write's
    /// `done` resumes it.
    func endBatch() -> Bool {
        guard let journaling else { return false }
        guard var batch = journaling.openBatch else { return !journaling.writing.isEmpty && stopIsNext }
        journaling.openBatch = nil
        let journal = journaling.journal
        if batch.record.isEmpty {
            // Nothing to write: its outputs wait with the newest batch being written, or leave now.
            if journaling.writing.isEmpty {
                release(batch.outputs)
            } else {
                journaling.writing[journaling.writing.count - 1].outputs += batch.outputs
            }
            return !journaling.writing.isEmpty && stopIsNext
        }
        batch.record.snapshot = snapshot
        guard journal.gatesOutput else {
            journal.write(batch.record) { _ in }
            return false
        }
        let sequence = journaling.nextSequence
        journaling.nextSequence += 1
        batch.sequence = sequence
        journaling.writing.append(batch)
        journal.write(batch.record) { [self] error in
            switch home {
            case .bound(let executor): executor.execute { self.assumeIsolated { $0.batchWritten(sequence, error) } }
            case .pool: Task { await self.batchWritten(sequence, error) }
            }
        }
        return waitsForWrites || stopIsNext
    }

    /// Whether the next envelope of the backlog is a stop (which waits for every write).
    private var stopIsNext: Bool {
        guard backlogStart < backlog.count, case .stop = backlog[backlogStart].payload else { return false }
        return true
    }

    /// The write of batch `sequence` ended: its outputs leave, or it is undone with every later batch. Then draining
    /// resumes. An answer for a batch already undone (with an earlier one) is ignored.
    func batchWritten(_ sequence: UInt64, _ error: (any Error)?) {
        guard let journaling, let first = journaling.writing.first, first.sequence == sequence else { return }
        journaling.writing.removeFirst()
        if let error {
            let later = journaling.writing
            journaling.writing = []
            undo(first, later: later, error)
        } else {
            release(first.outputs)
        }
        drain()
    }

    private func release(_ outputs: [HeldOutput]) {
        for output in outputs {
            switch output {
            case .notify(let snapshot): notifyObservers(snapshot)
            case .completion(let completion, let snapshot, _): completion(snapshot)
            case .settle(let request, _, let result): request.completion(result)
            case .event(let event): deliverEvent(event)
            }
        }
    }

    /// A failed write: the state goes back to before the batch, the effects of it and of the later batches are
    /// cancelled and their top-level follow-up actions dropped (a reset epoch), their senders told, and their
    /// versions never shown.
    private func undo(_ batch: JournalBatch, later: [JournalBatch], _ error: any Error) {
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
        let open = journaling?.openBatch?.outputs ?? []
        journaling?.openBatch = nil
        for output in ([batch] + later).flatMap(\.outputs) + open {
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
        let changes = ([batch] + later).map(\.record.changes.count).reduce(0, +)
        log("store \(name): \(1 + later.count) batch(es) of \(changes) change(s) could not be written and were undone "
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
        if holdsOutputs { hold(.notify(snapshot)) } else { notifyObservers(snapshot) }
    }

    /// An envelope's completion runs now, or once the batch is written.
    func complete(_ envelope: Envelope, _ snapshot: Snapshot<R.State>?) {
        guard let completion = envelope.completion else { return }
        if holdsOutputs {
            hold(.completion(completion, snapshot, notWritten: envelope.notWritten))
        } else {
            completion(snapshot)
        }
    }

    /// A settle group's completion runs now, or once the batch is written.
    func settle(_ request: SettleRequest, _ group: SettleGroupID, _ result: Result<Snapshot<R.State>, SettleTimeout<R.State>>) {
        if holdsOutputs { hold(.settle(request, group, result)) } else { request.completion(result) }
    }

    /// Event observers get `event` now, or once the batch is written (in stream order with the states).
    func emit(_ event: any Sendable) {
        if holdsOutputs { hold(.event(event)) } else { deliverEvent(event) }
    }
}
