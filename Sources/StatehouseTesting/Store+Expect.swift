public import StatehouseCore

extension Store {
    /// Waits until this store's state has `value` at `keyPath`; reports a failure if `timeout` passes first.
    ///
    /// OneWay's `expect` (OneWayTesting), without its polling: it returns as soon as a state with the value is
    /// reduced (woken by the store's state notifications, ``observe(_:)``), or at once if the current state has it.
    ///
    /// Unlike OneWay's, it does not end the wait when the store is idle: a store is idle between actions that other
    /// tasks are about to send (OneWay's own thread-safety test sends from 100,000 detached tasks), so an idle store
    /// with another value proves nothing. A wrong expectation therefore fails at its timeout. To check a settled
    /// value instead of the first one that matches, `await store.untilIdle()` and read ``state``.
    ///
    /// The failure names the key path, the expected value, the newest value seen and its version, and goes to
    /// whichever test runner is active, at the caller's line (an `Issue` in a Swift Testing test, an XCTest failure in
    /// an XCTest test, otherwise a line on standard error; see ``TestStore``).
    ///
    /// - Parameters:
    ///   - keyPath: The part of the state to watch.
    ///   - value: The value to wait for (compared with `==`).
    ///   - timeout: How long to wait at most, on the real (continuous) clock, whatever clock the store uses;
    ///     default 10 s (an upper bound, not a delay).
    public nonisolated(nonsending) func expect<Value: Equatable & Sendable>(
        _ keyPath: any KeyPath<R.State, Value> & Sendable,
        _ value: Value,
        timeout: Duration = .seconds(10),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        FailureReporter.prepare()
        let expectation = StateExpectation<R.State, Value>(keyPath: keyPath, value: value)
        let token = await Self.watch(self, for: expectation)
        var deadline: Task<Void, Never>?
        if !expectation.isFinished {
            deadline = Task {
                try? await Task.sleep(for: timeout, clock: .continuous)
                if !Task.isCancelled { expectation.deadlinePassed() }
            }
        }
        let outcome = await expectation.outcome()
        deadline?.cancel()
        await removeObserver(token)
        switch outcome {
        case .reached:
            return
        case .timedOut(let snapshot):
            let current = snapshot.map {
                "it is \(String(describing: $0.state[keyPath: keyPath])) (version \($0.version))"
            }
            site.fail(
                "Expected \(keyPath) to become \(String(describing: value)) within \(timeout), but "
                    + "\(current ?? "the store reported no state")"
            )
        }
    }

    /// Registers `expectation`'s observer and shows it the current snapshot, atomically on the store's actor.
    private static func watch<Value>(
        _ store: isolated Store<R>, for expectation: StateExpectation<R.State, Value>
    ) -> ObservationToken {
        let (current, token) = store.observe { expectation.see($0) }
        expectation.see(current)
        return token
    }
}
