/// Starting effects on the actor: the synchronous, top-level half of the interpreter.
///
/// A reduce's effect is interpreted right away, on the actor, as far as that is possible without
/// waiting: `.none`, `.just`, `.cancel`, `.merge`, `.cancellable`, `.create`, `.emit` and the
/// admission of `.throttle` are handled here, so a top-level cancel (or cancel-in-flight) takes
/// effect, and a top-level event is delivered, during the reduce that returned it. Work that must
/// wait (`.single`, `.sequence`, `.concat`, `.delay`) becomes a task owned by the store, running
/// the asynchronous half (`Interpreter.perform(_:in:)`, in `Store+Interpreter.swift`) under its own run.
extension Store {
    /// Interprets `effect` synchronously under `parent` (`nil` = a new top-level run where needed).
    func start(_ effect: Effect<R.Action>, parent: RunID?) {
        switch effect.operation {
        case .none:
            return
        case .just(let action):
            guard let parent else {
                retainGroup(currentGroup)
                push(Envelope(payload: .action(action), fromEffect: true, epoch: resetEpoch, group: currentGroup))
                return
            }
            guard retain(parent) else { return }
            push(Envelope(payload: .action(action), origin: parent, holdsRun: true, fromEffect: true))
        case .cancel(let effectID):
            cancel(effectID)
        case .merge(let children):
            for child in children {
                start(child, parent: parent)
            }
        case .cancellable(let inner, let effectID, let cancelInFlight):
            if cancelInFlight {
                cancel(effectID)
            }
            if let parent, !isLive(parent) { return }
            let run = makeRun(parent: parent, effectID: effectID, pending: 1)
            start(inner, parent: run)
            release(run)
        case .single, .sequence, .concat:
            if let parent, !isLive(parent) { return }
            let run = makeRun(parent: parent, effectID: nil, pending: 1)
            keep(launch(effect, in: run), for: run)
        case .create(let make):
            if let parent, !isLive(parent) { return }
            start(make(), parent: parent)
        case .emit(let event):
            if let parent, !isLive(parent) { return }
            emit(event)
        case .delay(let inner, let duration):
            if let parent, !isLive(parent) { return }
            let run = makeRun(parent: parent, effectID: nil, pending: 1)
            keep(launch(inner, in: run, after: clock.elapsed() + duration), for: run)
        case .throttle(let inner, let effectID, let window, let latest):
            if let parent, !isLive(parent) { return }
            if admitThrottled(inner, id: effectID, window: window, latest: latest, parent: parent) {
                start(Effect(.cancellable(inner, id: effectID, cancelInFlight: false)), parent: parent)
            }
        }
    }

    /// Starts a task run for `inner` registered under `effectID`, nested in `parent`; used by the
    /// asynchronous interpreter for a `.cancellable` inside a running effect.
    ///
    /// - Returns: The task to await, or `nil` if `parent` was cancelled meanwhile.
    func startCancellableTask(
        _ inner: Effect<R.Action>,
        parent: RunID,
        effectID: EffectID,
        cancelInFlight: Bool
    ) -> Task<Void, Never>? {
        if cancelInFlight {
            cancel(effectID)
        }
        guard isLive(parent) else { return nil }
        let run = makeRun(parent: parent, effectID: effectID, pending: 1)
        let task = launch(inner, in: run)
        keep(task, for: run)
        return task
    }

    /// Starts ``Reducer/bind()``'s effect: the runs it makes, and those nested in them, are bind's (its tasks do not
    /// keep the store from being idle: a subscription may never end, as OneWay's `isIdle` leaves out its binding task).
    func startBind() {
        let effect = reducer.bind()
        if case .none = effect.operation { return }
        startingBind = true
        start(effect, parent: nil)
        startingBind = false
    }

    /// Records the task of `run` (and, for a run of bind's, in ``bindTasks``).
    private func keep(_ task: Task<Void, Never>, for run: RunID) {
        tasks[run] = task
        if runs[run]?.fromBind == true { bindTasks.insert(run) }
    }

    /// Creates the task that performs `effect` under `run`, after sleeping until `deadline` (an
    /// offset on the store's clock) if one is given; the task forgets itself and releases the run's
    /// task hold when done. A cancelled sleep skips the effect.
    ///
    /// `nonisolated` so the task body is not isolated to the actor: effect work runs on the global
    /// concurrent executor and only hops to the actor for bookkeeping. The task holds the store
    /// weakly (through an ``Interpreter``), so it does not keep a released store alive.
    nonisolated func launch(
        _ effect: Effect<R.Action>,
        in run: RunID,
        after deadline: Duration? = nil
    ) -> Task<Void, Never> {
        let interpreter = Interpreter(store: self, clock: clock)
        return Task {
            if let deadline, (try? await interpreter.clock.sleepUntil(deadline)) == nil {
                await interpreter.store?.taskEnded(run)
                return
            }
            await interpreter.perform(effect, in: run)
            await interpreter.store?.taskEnded(run)
        }
    }

    /// Bookkeeping when the task of `run` has finished (normally or after cancellation).
    func taskEnded(_ run: RunID) {
        tasks[run] = nil
        if !bindTasks.isEmpty { bindTasks.remove(run) }
        release(run)
        resumeIdleWaitersIfIdle()
    }
}
