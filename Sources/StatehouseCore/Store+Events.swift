extension Store {
    /// Registers an observer of out-of-band events (``Effect/emit(_:)``).
    ///
    /// `onEvent` is called synchronously on the store's actor, in the same stream as state
    /// notifications: an event emitted after a reduce is seen after that reduce's state and before
    /// any later one. Events change neither state nor version. Keep it cheap and non-blocking.
    ///
    /// - Parameter onEvent: Receives each event of type `R.Event`.
    /// - Returns: The token for ``removeObserver(_:)``.
    public func observeEvents(_ onEvent: @escaping @Sendable (R.Event) -> Void) -> ObservationToken {
        nextObservationID += 1
        let token = ObservationToken(rawValue: nextObservationID)
        // A reducer without events (`Event == Never`) can never call it: not kept, so it costs nothing.
        if R.Event.self != Never.self {
            eventObservers.append((token, onEvent))
        }
        return token
    }

    /// Registers a tap that sees every action taken from the mailbox (for `StatehouseTesting`).
    ///
    /// Called on the actor, in reduce order, right after the action's reduce and state
    /// notification (before its effect starts), and also for actions dropped because their effect
    /// was cancelled (`dropped: true`). Taps cannot be removed; they live as long as the store.
    ///
    /// - Parameter onReduce: Receives each handled action.
    package func tap(_ onReduce: @escaping @Sendable (ReducedAction<R.Action>) -> Void) {
        taps.append(onReduce)
    }

    /// Delivers `event` to the event observers if it is an `R.Event`; otherwise logs one line.
    func deliverEvent(_ event: any Sendable) {
        guard let event = event as? R.Event else {
            log("store \(name): dropped event of type \(type(of: event)), which is not a \(R.Event.self)")
            return
        }
        for (_, observer) in eventObservers {
            observer(event)
        }
    }
}
