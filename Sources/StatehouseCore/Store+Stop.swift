extension Store {
    /// Enqueues a stop, FIFO with actions: every action enqueued before it is reduced first.
    ///
    /// When its turn comes, the store cancels every effect (no action or event of theirs is handled afterwards) and
    /// closes every throttle window; every action enqueued after it is dropped (its completion never runs). The
    /// state and version stay as they were. Used when a hosted store is deleted.
    ///
    /// State and event observers are released at the stop (never called again), so whatever they capture — often the
    /// object that owns the store — is freed with it instead of being kept alive through a reference cycle; every
    /// ``states(bufferingPolicy:)`` and ``states(_:bufferingPolicy:)`` stream finishes.
    ///
    /// - Parameter completion: Runs on the actor right after the stop with the final snapshot.
    public nonisolated func enqueueStop(completion: (@Sendable (Snapshot<R.State>) -> Void)? = nil) {
        pushControl(.stop, completion: completion)
    }

    /// The stop itself, on the actor inside the drain.
    func performStop() {
        isStopped = true
        resetEpoch += 1
        for run in runs.compactMap({ $0.value.parent == nil ? $0.key : nil }) {
            cancelRun(run)
        }
        closeAllThrottleWindows()
        let stopped = observers
        observers = []
        for (_, observer) in stopped { observer.storeStopped() }
        eventObservers = []
    }
}
