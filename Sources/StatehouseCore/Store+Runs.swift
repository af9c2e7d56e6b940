/// The run registry: which effect runs are live, under which ids, and when they finish.
///
/// Invariant: a run is in `runs` iff it is live, and then so are all its ancestors (cancelling a
/// run removes its whole subtree). `runsByEffectID` holds exactly the live runs that have an id, and
/// has no empty sets.
extension Store {
    /// Registers a new live run with `pending` initial work items.
    ///
    /// A nested run inherits its parent's settle group; a top-level run joins the group of the
    /// reduce in progress (`currentGroup`) and holds one count on it while live.
    ///
    /// - Precondition: `parent`, if any, is live.
    func makeRun(parent: RunID?, effectID: EffectID?, pending: Int) -> RunID {
        nextRunID += 1
        let run = RunID(rawValue: nextRunID)
        let group = parent.map { runs[$0]?.group } ?? currentGroup
        let fromBind = parent.map { runs[$0]?.fromBind ?? false } ?? startingBind
        runs[run] = RunRecord(parent: parent, effectID: effectID, group: group, fromBind: fromBind, pending: pending)
        if parent == nil {
            retainGroup(group)
        }
        if let parent {
            runs[parent]?.pending += 1
            runs[parent]?.children.insert(run)
        }
        if let effectID {
            runsByEffectID[effectID, default: []].insert(run)
        }
        return run
    }

    /// Whether `run` and all of its ancestors are live.
    func isLive(_ run: RunID) -> Bool {
        var current = run
        while let record = runs[current] {
            guard let parent = record.parent else { return true }
            current = parent
        }
        return false
    }

    /// Adds one work item to a live run; returns `false` if the run is no longer live.
    func retain(_ run: RunID) -> Bool {
        guard runs[run] != nil else { return false }
        runs[run]?.pending += 1
        return true
    }

    /// Removes one work item; a run left with none is finished and forgotten. No-op for runs that
    /// are no longer live (cancelled).
    func release(_ run: RunID) {
        guard var record = runs[run] else { return }
        record.pending -= 1
        if record.pending > 0 {
            runs[run] = record
            return
        }
        forget(run, record)
        if let parent = record.parent {
            release(parent)
        }
    }

    /// Cancels every live run registered under `effectID`, with everything nested inside them,
    /// and discards a throttle trailing effect waiting under it.
    func cancel(_ effectID: EffectID) {
        discardTrailing(effectID)
        guard let ids = runsByEffectID[effectID] else { return }
        for run in ids {
            cancelRun(run)
        }
    }

    /// Cancels `run` and its subtree: their tasks are cancelled and the runs forgotten, so any
    /// action they produced that is still queued will be dropped.
    func cancelRun(_ run: RunID) {
        guard let record = runs[run] else { return }
        forget(run, record)
        tasks[run]?.cancel()
        for child in record.children {
            cancelRun(child)
        }
        if let parent = record.parent {
            release(parent)
        }
    }

    /// Removes `run` from the registry, its id index and its parent's children.
    private func forget(_ run: RunID, _ record: RunRecord) {
        runs[run] = nil
        if let effectID = record.effectID {
            runsByEffectID[effectID]?.remove(run)
            if runsByEffectID[effectID]?.isEmpty == true {
                runsByEffectID[effectID] = nil
            }
        }
        if let parent = record.parent {
            runs[parent]?.children.remove(run)
        } else {
            releaseGroup(record.group)
        }
    }

    /// The number of live runs and of ids with live runs (for tests: both are `0` when idle).
    package var runBookkeepingCounts: (runs: Int, effectIDs: Int) {
        (runs.count, runsByEffectID.count)
    }
}
