public import StatehouseCore

extension TestStore {
    /// Waits until the store is idle (no effect running, see ``Store/isIdle``), then checks that
    /// nothing is left unasserted.
    ///
    /// Reports a failure when effects are still running after `timeout` (in both modes; with a
    /// ``TestClock``, effects waiting on it count as running until the test advances it), and, in
    /// ``Exhaustivity/on`` mode, when effect-produced actions were never `receive`d. The tasks of ``Reducer/bind()``
    /// (after ``start()``) do not count as running, as for ``Store/isIdle``: they live as long as the store, which
    /// cancels them when the test store goes away.
    ///
    /// - Parameter timeout: How long to wait on the real clock; `nil` uses ``timeout``.
    public nonisolated(nonsending) func finish(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        await install()
        let deadline = deadline(timeout)
        let before = recorder.idleReports.count
        let store = store
        let recorder = recorder
        // Not cancellable: after a timeout it stays parked in the store until the store idles.
        Task { await store.untilIdle(); recorder.recordIdle() }
        while true {
            let (count, generation) = recorder.idleReports
            if count > before { break }
            if await recorder.waitForReport(after: generation, until: deadline) == false {
                let running = await store.runningEffectCount
                site.fail(
                    "\(running) effect(s) still running after \(timeout ?? self.timeout); "
                        + "advance the clock, cancel them, or receive their actions before finish()"
                )
                break
            }
        }
        skipUnasserted(upTo: recorder.actions(from: cursor).actions.endIndex, before: "finish()", at: site)
    }

    /// Waits until the store's state has `value` at `keyPath`; reports a failure if it does not
    /// within `timeout`.
    ///
    /// Woken by the store's state notifications, not by polling. Consumes nothing: in
    /// ``Exhaustivity/on`` mode the actions that made the change still have to be received. Like
    /// `Store.expect(_:_:timeout:fileID:filePath:line:column:)`, it returns at the first state with the
    /// value and fails only at the timeout.
    ///
    /// - Parameters:
    ///   - keyPath: The part of the state to watch.
    ///   - value: The value to wait for.
    ///   - timeout: How long to wait on the real clock; `nil` uses ``timeout``.
    public nonisolated(nonsending) func expect<Value: Equatable>(
        _ keyPath: KeyPath<R.State, Value>,
        _ value: Value,
        timeout: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        await install()
        let deadline = deadline(timeout)
        while true {
            let (snapshot, generation) = recorder.latest
            let current = snapshot.state[keyPath: keyPath]
            if current == value { return }
            if await recorder.waitForReport(after: generation, until: deadline) == false {
                site.fail(
                    "Expected \(keyPath) to become \(String(describing: value)) within "
                        + "\(timeout ?? self.timeout), but it is \(String(describing: current)) "
                        + "(version \(snapshot.version))"
                )
                return
            }
        }
    }
}
