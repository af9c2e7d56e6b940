public import StatehouseCore

extension TestStore {
    /// Sends `action` to the store, waits until it is reduced, and checks the state change.
    ///
    /// In ``Exhaustivity/on`` mode, effect-produced actions not yet `receive`d at this point (or
    /// reduced before this action) are reported as a failure first, and the state right after the
    /// action must equal the last asserted state with `update` applied. In ``Exhaustivity/off``
    /// mode only the fields `update` writes are checked.
    ///
    /// - Parameters:
    ///   - action: The action to send.
    ///   - update: Mutates the previous state into the expected one; `nil` expects no change (in
    ///     exhaustive mode). A thrown error is reported as a failure.
    /// - Returns: The store's snapshot right after this action.
    @discardableResult
    public nonisolated(nonsending) func send(
        _ action: R.Action,
        assert update: ((inout R.State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Snapshot<R.State> {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let step = "send(\(String(describing: action)))"
        await install()
        skipUnasserted(upTo: recorder.actions(from: cursor).actions.endIndex, before: step, at: site)
        let snapshot = await store.send(action)
        let recent = recorder.actions(from: cursor).actions
        guard let own = recent.firstIndex(where: { !$0.fromEffect }) else {
            site.fail("TestStore did not see \(step) reach the reducer")
            return snapshot
        }
        skipUnasserted(upTo: own, before: step, at: site)
        assertState(after: recent[own], step: step, update: update, at: site)
        cursor = own + 1
        return snapshot
    }
}
