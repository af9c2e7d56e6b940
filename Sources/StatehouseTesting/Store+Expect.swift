public import StatehouseCore

extension Store {
    /// Waits until this store's state has `value` at `keyPath`; reports a failure if the store becomes idle with
    /// another value there, or if `timeout` passes first.
    ///
    /// OneWay's `expect` (OneWayTesting), without its polling: it returns as soon as a state with the value is
    /// reduced (woken by the store's state notifications, ``observe(_:)``), or at once if the current state has it.
    /// The wait fails:
    /// - when the store is idle (``isIdle``: no action queued, no effect task running, no trailing throttle) and its
    ///   state has another value: nothing the store holds would change it any more. A store that is idle when
    ///   `expect` is called fails at once, so send the action first (`await send(_:)`, or ``enqueue(_:completion:)``
    ///   before the call), not from a task that may not have run yet;
    /// - when `timeout` passes first (a store that never idles: a timer effect, or effects waiting on a test clock
    ///   nobody advances).
    ///
    /// The failure names the key path, the expected and the actual value and the version, and goes to whichever test
    /// runner is active, at the caller's line (an `Issue` in a Swift Testing test, an XCTest failure in an XCTest
    /// test, otherwise a line on standard error; see ``TestStore``).
    ///
    /// A store that never idles keeps one task parked in ``untilIdle()`` after `expect` returns, until it does.
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
            // Not cancellable (untilIdle is not): after the wait it stays parked in the store until the store idles.
            Task { expectation.storeIdle(in: await Self.idleSnapshot(of: self)) }
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
        case .idle(let snapshot):
            site.fail(
                "Expected \(keyPath) to become \(String(describing: value)), but the store is idle (no action queued, "
                    + "no effect running) with \(String(describing: snapshot.state[keyPath: keyPath])) "
                    + "(version \(snapshot.version)); nothing left in it would change that"
            )
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

    /// The snapshot at the first moment the store is idle, read on its actor in the same turn as the check.
    private static func idleSnapshot(of store: isolated Store<R>) async -> Snapshot<R.State> {
        while !store.isIdle {
            await store.untilIdle()
        }
        return store.snapshot
    }
}
