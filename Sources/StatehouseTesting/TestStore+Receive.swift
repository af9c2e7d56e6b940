public import StatehouseCore

extension TestStore where R.Action: Equatable {
    /// Waits for the next action an effect produces and checks it and the state change it made.
    ///
    /// Actions are received in reduce order. ``Exhaustivity/on``: the next effect-produced action
    /// must equal `expected` (otherwise a failure shows both, and that action is consumed); the state
    /// check is as in ``send(_:assert:fileID:filePath:line:column:)``. ``Exhaustivity/off``: other
    /// received actions are skipped until one equal to `expected` arrives.
    ///
    /// - Parameters:
    ///   - expected: The action the effect should produce.
    ///   - timeout: How long to wait on the real clock; `nil` uses ``timeout``. With a
    ///     ``TestClock``, advance it first: the wait does not move the test clock.
    ///   - update: Mutates the previous state into the expected one (see `send`).
    public nonisolated(nonsending) func receive(
        _ expected: R.Action,
        timeout: Duration? = nil,
        assert update: ((inout R.State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await receiveNext(
            step: "receive(\(String(describing: expected)))",
            timeout: timeout,
            update: update,
            at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
            matches: { $0 == expected },
            mismatch: { received in
                let diff = StateDiff.render(expected: expected, actual: received)
                return "Received an unexpected action (− expected, + received):\n\(diff)"
            }
        )
    }
}

extension TestStore {
    /// Waits for the next action an effect produces, matched by its case, and checks the state change it made; works
    /// when `R.Action` is not `Equatable`.
    ///
    /// The case is named by a key path to an optional property of the action that is non-`nil` for that case only
    /// (TCA's case key paths, written by hand):
    ///
    /// ```swift
    /// extension Feature.Action {
    ///     var loaded: Int? { if case .loaded(let n) = self { n } else { nil } }
    /// }
    /// await store.receive(\.loaded) { $0.count = 3 }
    /// ```
    ///
    /// A case without a payload can use `Void?` (`if case .started = self { () } else { nil }`). Exhaustivity as in
    /// ``receive(_:timeout:assert:fileID:filePath:line:column:)``: with ``Exhaustivity/on`` the next effect-produced
    /// action must have the case (otherwise a failure names the case and shows the action, which is consumed); with
    /// ``Exhaustivity/off`` other received actions are skipped until one with the case arrives.
    ///
    /// - Parameters:
    ///   - casePath: The action's property for the case: non-`nil` when the action has that case.
    ///   - timeout: How long to wait on the real clock; `nil` uses ``timeout``.
    ///   - update: Mutates the previous state into the expected one (see `send`).
    public nonisolated(nonsending) func receive<Payload>(
        _ casePath: KeyPath<R.Action, Payload?>,
        timeout: Duration? = nil,
        assert update: ((inout R.State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await receiveNext(
            step: "receive(\(Self.describe(casePath)))",
            timeout: timeout,
            update: update,
            at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
            matches: { $0[keyPath: casePath] != nil },
            mismatch: { received in
                "Received an unexpected action: expected one of \(Self.describe(casePath)), received:\n  "
                    + String(describing: received)
            }
        )
    }

    /// Waits for the next action an effect produces, matched by its case and payload, and checks the state change it
    /// made; works when `R.Action` is not `Equatable`.
    ///
    /// As `receive(_ casePath:timeout:assert:)` (the case by key path, the same exhaustivity), and the action's
    /// payload must equal `payload`: `await store.receive(\.loaded, 3)`. A payload that differs is a mismatch like
    /// another case (the failure then shows a diff of the two payloads).
    ///
    /// - Parameters:
    ///   - casePath: The action's property for the case: its payload when the action has that case, else `nil`.
    ///   - payload: The payload the action must carry.
    ///   - timeout: How long to wait on the real clock; `nil` uses ``timeout``.
    ///   - update: Mutates the previous state into the expected one (see `send`).
    public nonisolated(nonsending) func receive<Payload: Equatable>(
        _ casePath: KeyPath<R.Action, Payload?>,
        _ payload: Payload,
        timeout: Duration? = nil,
        assert update: ((inout R.State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await receiveNext(
            step: "receive(\(Self.describe(casePath)), \(String(describing: payload)))",
            timeout: timeout,
            update: update,
            at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
            matches: { $0[keyPath: casePath] == payload },
            mismatch: { received in
                guard let other = received[keyPath: casePath] else {
                    return "Received an unexpected action: expected one of \(Self.describe(casePath)) with payload "
                        + "\(String(describing: payload)), received:\n  \(String(describing: received))"
                }
                let diff = StateDiff.render(expected: payload, actual: other)
                return "Received an action of \(Self.describe(casePath)) with another payload "
                    + "(− expected, + received):\n\(diff)"
            }
        )
    }

    /// A case key path for messages: its own description when it names a property (a stored one), otherwise (a
    /// computed property, which Swift describes only by address) the case's action type and payload type, as
    /// `\Action.<case with Int>`; the failure's line shows the key path as written.
    static func describe<Payload>(_ casePath: KeyPath<R.Action, Payload?>) -> String {
        let text = String(describing: casePath)
        guard text.contains("<computed") else { return text }
        let payload = Payload.self == Void.self ? "no payload" : String(describing: Payload.self)
        return "\\\(R.Action.self).<case with \(payload)>"
    }

    /// The wait of every `receive`: the next effect-produced action `matches` accepts, checked like `send`.
    ///
    /// ``Exhaustivity/on``: the next received action must match, otherwise `mismatch` describes it in a failure and it
    /// is consumed. ``Exhaustivity/off``: received actions that do not match are skipped until one does.
    nonisolated(nonsending) func receiveNext(
        step: String,
        timeout: Duration?,
        update: ((inout R.State) throws -> Void)?,
        at site: CallSite,
        matches: (R.Action) -> Bool,
        mismatch: (R.Action) -> String
    ) async {
        await install()
        let deadline = deadline(timeout)
        var skipped: [String] = []
        while true {
            let (recent, generation) = recorder.actions(from: cursor)
            if let index = recent.firstIndex(where: \.isReceivable) {
                let entry = recent[index]
                if matches(entry.action) {
                    assertState(after: entry, step: step, update: update, at: site)
                    cursor = index + 1
                    return
                }
                if exhaustivity == .on {
                    site.fail(mismatch(entry.action))
                    skipUnasserted(upTo: index + 1, before: step, report: false, at: site)
                    return
                }
                skipped.append(String(describing: entry.action))
                skipUnasserted(upTo: index + 1, before: step, report: false, at: site)
                continue
            }
            if await recorder.waitForReport(after: generation, until: deadline) == false {
                let seen = skipped.isEmpty ? "no action" : "only \(skipped.joined(separator: ", "))"
                site.fail("Expected to \(step) within \(timeout ?? self.timeout), but \(seen) arrived")
                return
            }
        }
    }
}
