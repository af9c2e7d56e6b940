extension TestStore {
    /// Consumes every action effects have produced so far without asserting them; the next step's closure starts
    /// from the state right after the last of them.
    ///
    /// TCA's `skipReceivedActions(strict:)`. "So far" is what the store has reduced when this call reaches the
    /// store's actor (so an action whose new state a test already saw, say through `expect`, is included): an effect
    /// still running may produce more later (receive them, or skip again). In ``Exhaustivity/on`` mode the skipped
    /// actions are not reported, and their state changes need no assertion.
    ///
    /// - Parameters:
    ///   - strict: When `true` (the default), a failure is reported if there was no received action to skip.
    public nonisolated(nonsending) func skipReceivedActions(
        strict: Bool = true,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        await install()
        // One turn on the store's actor: a reduce whose state observers already saw has reported its action to the
        // tap too (observers are called first, in the same turn).
        _ = await store.version
        let recent = recorder.actions(from: cursor).actions
        if strict, !recent.contains(where: \.isReceivable) {
            site.fail("There were no received actions to skip; pass strict: false when that is fine")
        }
        skipUnasserted(upTo: recent.endIndex, before: "skipReceivedActions()", report: false, at: site)
    }
}
