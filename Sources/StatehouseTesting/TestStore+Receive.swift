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
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let step = "receive(\(String(describing: expected)))"
        await install()
        let deadline = deadline(timeout)
        var skipped: [String] = []
        while true {
            let (recent, generation) = recorder.actions(from: cursor)
            if let index = recent.firstIndex(where: { $0.fromEffect && !$0.dropped }) {
                let entry = recent[index]
                if entry.action == expected {
                    assertState(after: entry, step: step, update: update, at: site)
                    cursor = index + 1
                    return
                }
                if exhaustivity == .on {
                    let diff = StateDiff.render(expected: expected, actual: entry.action)
                    site.fail("Received an unexpected action (− expected, + received):\n\(diff)")
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
