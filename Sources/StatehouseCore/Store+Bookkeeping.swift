/// The effect bookkeeping, allocated on first write.
///
/// A store that only reduces (no effect task, no settle, no throttle, no ``Store/untilIdle()`` wait) never creates
/// it: its actor object stays 112 bytes smaller. The properties below read as empty while it does not exist and
/// create it on the first write; `_modify` mutates in place (no copy of a dictionary per update). Writing an empty
/// value (`nil`, `[]`, `[:]`) while it does not exist creates nothing.
extension Store {
    /// The bookkeeping tables. Once created, kept for the life of the store (the id counters must never restart:
    /// a queued envelope may still name an old run).
    ///
    /// ## Thread safety
    /// Owned by the store's actor and used only on it, and by the store's `deinit`, which then holds the only
    /// reference. `@unchecked Sendable` only so that `deinit` (nonisolated) may read it; an `isolated deinit` would not
    /// need it, but makes Swift 6.3's cross-module optimization of the server loop forever on the deinit's isolation
    /// ("circular reference" in the release build).
    final class Bookkeeping: @unchecked Sendable {
        var runs: [RunID: RunRecord] = [:]
        var runsByEffectID: [EffectID: Set<RunID>] = [:]
        var tasks: [RunID: Task<Void, Never>] = [:]
        var nextRunID: UInt64 = 0
        var currentGroup: SettleGroupID?
        var settleGroups: [SettleGroupID: SettleGroup] = [:]
        var nextSettleGroupID: UInt64 = 0
        var timeoutWatcher: (task: Task<Void, Never>, deadline: Duration)?
        var throttles: [EffectID: ThrottleWindow] = [:]
        var nextThrottleWindowID: UInt64 = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        /// Set while ``Reducer/bind()``'s effect is being started: the top-level runs made then are bind's.
        var startingBind = false
        /// The running tasks (keys of `tasks`) of bind's runs.
        var bindTasks: Set<RunID> = []
    }

    /// The bookkeeping, created now if it does not exist yet.
    private var writable: Bookkeeping {
        if let bookkeeping { return bookkeeping }
        let created = Bookkeeping()
        bookkeeping = created
        return created
    }

    /// Live effect runs (see `Store+Runs.swift`).
    var runs: [RunID: RunRecord] {
        get { bookkeeping?.runs ?? [:] }
        set { if bookkeeping != nil || !newValue.isEmpty { writable.runs = newValue } }
        _modify { yield &writable.runs }
    }

    /// Live runs by cancellation id.
    var runsByEffectID: [EffectID: Set<RunID>] {
        get { bookkeeping?.runsByEffectID ?? [:] }
        set { if bookkeeping != nil || !newValue.isEmpty { writable.runsByEffectID = newValue } }
        _modify { yield &writable.runsByEffectID }
    }

    /// Running effect tasks by run.
    var tasks: [RunID: Task<Void, Never>] {
        get { bookkeeping?.tasks ?? [:] }
        set { if bookkeeping != nil || !newValue.isEmpty { writable.tasks = newValue } }
        _modify { yield &writable.tasks }
    }

    /// The last run id handed out.
    var nextRunID: UInt64 {
        get { bookkeeping?.nextRunID ?? 0 }
        _modify { yield &writable.nextRunID }
    }

    /// The settle group the reduce in progress belongs to (see `Store+Settle.swift`).
    var currentGroup: SettleGroupID? {
        get { bookkeeping?.currentGroup }
        set { if bookkeeping != nil || newValue != nil { writable.currentGroup = newValue } }
    }

    /// Open settle groups.
    var settleGroups: [SettleGroupID: SettleGroup] {
        get { bookkeeping?.settleGroups ?? [:] }
        set { if bookkeeping != nil || !newValue.isEmpty { writable.settleGroups = newValue } }
        _modify { yield &writable.settleGroups }
    }

    /// The last settle group id handed out.
    var nextSettleGroupID: UInt64 {
        get { bookkeeping?.nextSettleGroupID ?? 0 }
        _modify { yield &writable.nextSettleGroupID }
    }

    /// The one task that fails settle groups at their deadline, and the deadline it sleeps until.
    var timeoutWatcher: (task: Task<Void, Never>, deadline: Duration)? {
        get { bookkeeping?.timeoutWatcher }
        set { if bookkeeping != nil || newValue != nil { writable.timeoutWatcher = newValue } }
    }

    /// Open throttle windows by cancellation id.
    var throttles: [EffectID: ThrottleWindow] {
        get { bookkeeping?.throttles ?? [:] }
        set { if bookkeeping != nil || !newValue.isEmpty { writable.throttles = newValue } }
        _modify { yield &writable.throttles }
    }

    /// The last throttle window generation handed out.
    var nextThrottleWindowID: UInt64 {
        get { bookkeeping?.nextThrottleWindowID ?? 0 }
        _modify { yield &writable.nextThrottleWindowID }
    }

    /// Whether ``Reducer/bind()``'s effect is being started (see ``RunRecord/fromBind``).
    var startingBind: Bool {
        get { bookkeeping?.startingBind ?? false }
        set { if bookkeeping != nil || newValue { writable.startingBind = newValue } }
    }

    /// The running tasks of bind's runs: they do not count against ``isIdle``.
    var bindTasks: Set<RunID> {
        get { bookkeeping?.bindTasks ?? [] }
        set { if bookkeeping != nil || !newValue.isEmpty { writable.bindTasks = newValue } }
        _modify { yield &writable.bindTasks }
    }

    /// Suspended ``untilIdle()`` callers.
    var idleWaiters: [CheckedContinuation<Void, Never>] {
        get { bookkeeping?.idleWaiters ?? [] }
        set { if bookkeeping != nil || !newValue.isEmpty { writable.idleWaiters = newValue } }
        _modify { yield &writable.idleWaiters }
    }
}
