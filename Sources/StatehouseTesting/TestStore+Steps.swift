import StatehouseCore

extension TestStore {
    /// Moves the cursor to `end`, past actions no step asserted: in ``Exhaustivity/on`` mode (and
    /// with `report`) a failure lists the effect-produced ones; in both modes the baseline becomes the
    /// real state after the last of them.
    ///
    /// - Parameters:
    ///   - end: The recorded-action index to move the cursor to.
    ///   - context: Completes "Must receive … before …" in the message.
    ///   - report: `false` when the caller already reported these actions.
    func skipUnasserted(upTo end: Int, before context: String, report: Bool = true, at site: CallSite) {
        let recent = recorder.actions(from: cursor).actions
        let skipped = recent[recent.startIndex..<min(max(end, recent.startIndex), recent.endIndex)]
        let received = skipped.filter(\.isReceivable)
        if report, exhaustivity == .on, !received.isEmpty {
            site.fail(
                "Must receive \(received.count) action(s) produced by effects before \(context); unreceived:\n"
                    + RecordedAction.list(received)
            )
        }
        if let last = skipped.last(where: { !$0.dropped }), let state = recorder.state(at: last.version) {
            baseline = state
        }
        cursor = max(cursor, end)
    }

    /// Checks the state right after `entry` against the step's closure, then makes it the baseline.
    ///
    /// ``Exhaustivity/on``: the baseline with `update` applied must equal the actual state.
    /// ``Exhaustivity/off``: the actual state with `update` applied must still equal the actual state
    /// (the asserted fields hold those values; others are not checked).
    func assertState(
        after entry: RecordedAction<R.Action>,
        step: String,
        update: ((inout R.State) throws -> Void)?,
        at site: CallSite
    ) {
        guard let actual = recorder.state(at: entry.version) else {
            site.fail("TestStore lost the state of version \(entry.version) after \(step)")
            return
        }
        defer { baseline = actual }
        if exhaustivity == .off, update == nil { return }
        var expected = exhaustivity == .on ? baseline : actual
        do {
            try update?(&expected)
        } catch {
            site.fail("The state closure of \(step) threw: \(String(reflecting: error))")
            return
        }
        if expected != actual {
            let diff = StateDiff.render(expected: expected, actual: actual)
            site.fail("State after \(step) differs from the expectation (− expected, + actual):\n\(diff)")
        }
    }

    /// The point in time `timeout` (or the default ``timeout``) from now, on the real clock.
    func deadline(_ timeout: Duration?) -> ContinuousClock.Instant {
        ContinuousClock.now.advanced(by: timeout ?? self.timeout)
    }
}
