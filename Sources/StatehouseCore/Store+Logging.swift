extension Store {
    /// Changes what the store logs about its actions and states (see ``StoreLogging``), from the next action taken
    /// from the mailbox on. `[]` stops it.
    ///
    /// - Parameter logging: The lines to write from now on.
    public func setLogging(_ logging: StoreLogging) {
        self.logging = logging
    }

    /// ``setLogging(_:)`` under OneWay's name (`store.debug(.all)`). Unlike OneWay's, it logs in release builds too
    /// and on every platform.
    ///
    /// - Parameter logging: The lines to write from now on.
    public func debug(_ logging: StoreLogging) {
        setLogging(logging)
    }

    /// The ``StoreLogging`` lines for one action taken from the mailbox: `dropped` (and why), or reduced, leaving the
    /// state `changed` or not. Called only when ``logging`` is not empty.
    func logAction(_ action: R.Action, _ envelope: Envelope, dropped: Bool, changed: Bool) {
        if logging.contains(.actions) {
            let origin = envelope.fromEffect ? " (from an effect)" : ""
            let outcome: String
            if dropped {
                let why = isStopped ? "the store is stopped" : "its effect was cancelled or the store reset"
                outcome = " dropped at version \(version) (\(why))"
            } else {
                outcome = " → version \(version)\(changed ? "" : " (state unchanged)")"
            }
            log("store \(name): action \(StoreLogging.describe(action))\(origin)\(outcome)", .record)
        }
        if changed { logState() }
    }

    /// The ``StoreLogging`` lines for a reset that left the state `changed` or not. Called only when ``logging`` is
    /// not empty.
    func logReset(_ mode: ResetMode, changed: Bool) {
        if logging.contains(.actions) {
            let kind = mode == .keepingState ? "reset keeping state" : "reset"
            log("store \(name): \(kind) → version \(version)\(changed ? "" : " (state unchanged)")", .record)
        }
        if changed { logState() }
    }

    private func logState() {
        guard logging.contains(.state) else { return }
        log("store \(name): state at version \(version): \(StoreLogging.describe(state))", .record)
    }
}
