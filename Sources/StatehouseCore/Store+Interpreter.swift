/// The asynchronous half of the effect interpreter: runs inside one task, under one run.
extension Store {
    /// What an effect's task holds of its store: a weak reference, and the clock.
    ///
    /// The task takes a strong reference only for a hop onto the store (bookkeeping, a cancel) and while an action it
    /// sent waits in the mailbox, never while it waits on its own work (a clock sleep, the user code of
    /// ``Effect/single(_:catch:)`` or ``Effect/sequence(_:catch:)``, a child run): so a store whose owner lets go of it
    /// is released, and its `deinit` cancels the task (see "Lifetime" on ``Store``). Once the store is gone, every
    /// hop does nothing and every send returns at once.
    ///
    /// ## Thread safety
    /// Immutable and `Sendable`; used by the task it was made for and that task's children.
    struct Interpreter: Sendable {
        weak let store: Store<R>?
        let clock: StoreClock

        /// Performs `effect` to completion; every action it produces is tagged with `run`.
        ///
        /// `merge` becomes a task group (children concurrently), `concat` a loop (each child awaited,
        /// including the reduction of everything it sent), `cancellable` a child task run that can be
        /// cancelled on its own, and `cancel` a hop to the actor.
        func perform(_ effect: Effect<R.Action>, in run: RunID) async {
            switch effect.operation {
            case .none:
                return
            case .just(let action):
                await deliver(action, from: run)
            case .single(let operation, let handler):
                do {
                    let action = try await operation()
                    await deliver(action, from: run)
                } catch {
                    await handle(error, handler, from: run)
                }
            case .sequence(let operation, let handler):
                do {
                    try await operation(Send { await self.deliver($0, from: run) })
                } catch {
                    await handle(error, handler, from: run)
                }
            case .merge(let children):
                await withTaskGroup(of: Void.self) { group in
                    for child in children {
                        group.addTask { await self.perform(child, in: run) }
                    }
                }
            case .concat(let children):
                for child in children {
                    if Task.isCancelled { return }
                    await perform(child, in: run)
                }
            case .cancellable(let inner, let effectID, let cancelInFlight):
                let task = await store?.startCancellableTask(
                    inner,
                    parent: run,
                    effectID: effectID,
                    cancelInFlight: cancelInFlight
                )
                await awaitChild(task)
            case .cancel(let effectID):
                await store?.cancel(effectID)
            case .create(let make):
                if Task.isCancelled { return }
                await perform(make(), in: run)
            case .emit(let event):
                await deliverEvent(event, from: run)
            case .delay(let inner, let duration):
                do {
                    try await clock.sleepUntil(clock.elapsed() + duration)
                } catch {
                    return
                }
                await perform(inner, in: run)
            case .throttle(let inner, let effectID, let window, let latest):
                let task = await store?.startThrottledTask(
                    inner, id: effectID, window: window, latest: latest, parent: run)
                await awaitChild(task)
            }
        }

        /// Waits for a child run's task, forwarding cancellation of the current task to it.
        private func awaitChild(_ task: Task<Void, Never>?) async {
            guard let task else { return }
            await withTaskCancellationHandler {
                await task.value
            } onCancel: {
                task.cancel()
            }
        }

        /// Enqueues `action` tagged with `run` and waits until it is reduced or dropped.
        /// Returns at once, enqueuing nothing, if the current task is cancelled or the store is gone.
        func deliver(_ action: R.Action, from run: RunID) async {
            await enqueueAndWait(.action(action), from: run)
        }

        /// Enqueues `event` tagged with `run` and waits until it is delivered or dropped.
        /// Returns at once, enqueuing nothing, if the current task is cancelled or the store is gone.
        func deliverEvent(_ event: any Sendable, from run: RunID) async {
            await enqueueAndWait(.event(event), from: run)
        }

        /// Holds the store until the envelope is handled: a drain is scheduled (or running) for it, so that is soon.
        private func enqueueAndWait(_ payload: Envelope.Payload, from run: RunID) async {
            if Task.isCancelled { return }
            guard let store else { return }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                store.push(Envelope(payload: payload, origin: run, fromEffect: true) { _ in continuation.resume() })
            }
        }

        /// Turns an effect's error into an action, a log line, or nothing (`CancellationError`, or the store gone).
        func handle(
            _ error: any Error,
            _ handler: (@Sendable (any Error) -> R.Action?)?,
            from run: RunID
        ) async {
            if error is CancellationError { return }
            if let handler {
                if let action = handler(error) {
                    await deliver(action, from: run)
                }
            } else if let store {
                let label = await store.effectLabel(of: run).map { "effect \($0)" } ?? "effect"
                store.log("store \(store.name): \(label) failed: \(String(describing: error))")
            }
        }
    }

    /// The cancellation id of `run` or of its nearest ancestor that has one, for log lines.
    func effectLabel(of run: RunID) -> String? {
        var current: RunID? = run
        while let id = current, let record = runs[id] {
            if let effectID = record.effectID { return effectID.description }
            current = record.parent
        }
        return nil
    }
}
