/// The asynchronous half of the effect interpreter: runs inside one task, under one run.
extension Store {
    /// Performs `effect` to completion; every action it produces is tagged with `run`.
    ///
    /// `merge` becomes a task group (children concurrently), `concat` a loop (each child awaited,
    /// including the reduction of everything it sent), `cancellable` a child task run that can be
    /// cancelled on its own, and `cancel` a hop to the actor.
    nonisolated func perform(_ effect: Effect<R.Action>, in run: RunID) async {
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
            let task = await startCancellableTask(
                inner,
                parent: run,
                effectID: effectID,
                cancelInFlight: cancelInFlight
            )
            await awaitChild(task)
        case .cancel(let effectID):
            await cancel(effectID)
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
            let task = await startThrottledTask(inner, id: effectID, window: window, latest: latest, parent: run)
            await awaitChild(task)
        }
    }

    /// Waits for a child run's task, forwarding cancellation of the current task to it.
    private nonisolated func awaitChild(_ task: Task<Void, Never>?) async {
        guard let task else { return }
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
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

    /// Enqueues `action` tagged with `run` and waits until it is reduced or dropped.
    /// Returns at once, enqueuing nothing, if the current task is cancelled.
    nonisolated func deliver(_ action: R.Action, from run: RunID) async {
        await enqueueAndWait(.action(action), from: run)
    }

    /// Enqueues `event` tagged with `run` and waits until it is delivered or dropped.
    /// Returns at once, enqueuing nothing, if the current task is cancelled.
    nonisolated func deliverEvent(_ event: any Sendable, from run: RunID) async {
        await enqueueAndWait(.event(event), from: run)
    }

    private nonisolated func enqueueAndWait(_ payload: Envelope.Payload, from run: RunID) async {
        if Task.isCancelled { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            push(Envelope(payload: payload, origin: run, fromEffect: true) { _ in continuation.resume() })
        }
    }

    /// Turns an effect's error into an action, a log line, or nothing (`CancellationError`).
    nonisolated func handle(
        _ error: any Error,
        _ handler: (@Sendable (any Error) -> R.Action?)?,
        from run: RunID
    ) async {
        if error is CancellationError { return }
        if let handler {
            if let action = handler(error) {
                await deliver(action, from: run)
            }
        } else {
            let label = await effectLabel(of: run).map { "effect \($0)" } ?? "effect"
            log("store \(name): \(label) failed: \(String(describing: error))")
        }
    }
}
