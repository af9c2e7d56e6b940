import StatehouseCore
import StatehouseTesting
import Testing

/// `Store.expect(_:_:timeout:)`: OneWay's `expect`, woken by the store instead of polling it.
@Suite struct StoreExpectTests {
    @Test func returnsAtOnceWhenTheStateAlreadyHasTheValue() async {
        let store = Store(reducer: Counter(), state: .init(count: 3))
        await store.expect(\.count, 3)
    }

    @Test func waitsForTheValueAnEffectProduces() async {
        let store = Store(reducer: Counter(), state: .init())
        _ = await store.send(.fetch(42))
        await store.expect(\.value, 42)
        #expect(await store.state.value == 42)
    }

    @Test func followsNestedKeyPaths() async {
        let store = Store(reducer: Counter(), state: .init())
        _ = await store.send(.rename("four"))
        await store.expect(\.label.count, 4)
    }

    /// The store is not idle while its effect sleeps on the test clock: only the state notification can end the wait.
    @Test func isWokenByTheStoresStateNotification() async {
        let clock = TestClock()
        let store = Store(reducer: Counter(), state: .init(), clock: clock)
        _ = await store.send(.fetchLater(9, seconds: 10))
        #expect(await clock.waitForSleepers(1))
        let started = ContinuousClock.now
        let waiting = Task { await store.expect(\.value, 9, timeout: .seconds(60)) }
        await clock.advance(by: .seconds(10))
        await waiting.value
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(await store.state.value == 9)
    }

    @Test func failsAtTheTimeoutWhenTheIdleStoreHasAnotherValue() async {
        let store = Store(reducer: Counter(), state: .init())
        _ = await store.send(.increment)
        let expectedLine = #line + 2
        await withKnownIssue {
            await store.expect(\.count, 2, timeout: .milliseconds(50))
        } matching: { issue in
            let text = String(describing: issue)
            return issue.sourceLocation?.line == expectedLine && issue.sourceLocation?.fileID == #fileID
                && text.contains("to become 2 within 0.05 seconds, but it is 1 (version 1)")
        }
    }

    /// A store is idle between actions other tasks are about to send: the wait must not end there (OneWay's
    /// `threadSafeSendingActions` sends each action from its own detached task).
    @Test func waitsThroughIdleMomentsForActionsFromOtherTasks() async {
        let store = Store(reducer: Counter(), state: .init())
        let (signal, open) = AsyncStream<Never>.makeStream()
        let gate = Task { for await _ in signal {} }  // ends when `open` finishes
        for _ in 0..<100 {
            Task.detached {
                await gate.value
                _ = await store.send(.increment)
            }
        }
        await store.untilIdle()  // the store's own start has been handled; no send has run yet
        #expect(await store.isIdle)
        let waiter = Task { await store.expect(\.count, 100, timeout: .seconds(60)) }
        open.finish()
        await waiter.value
        #expect(await store.state.count == 100)
    }

    @Test func failsAtTheTimeoutWhenTheStoreNeverIdles() async {
        let clock = TestClock()
        let store = Store(reducer: Counter(), state: .init(), clock: clock)
        _ = await store.send(.fetchLater(9, seconds: 10))
        await withKnownIssue {
            await store.expect(\.value, 9, timeout: .milliseconds(50))
        } matching: { issue in
            String(describing: issue).contains("within 0.05 seconds, but it is 0 (version 0)")
        }
        _ = await store.send(.cancelFetches)
        await store.untilIdle()
    }

    /// OneWay's `storeExpectWithManyActions`, smaller: many awaited sends, then one delayed increment.
    @Test func seesTheLastOfManyActions() async {
        let clock = TestClock()
        let store = Store(reducer: Counter(), state: .init(), clock: clock)
        for _ in 0..<1_000 {
            _ = await store.send(.increment)
        }
        _ = await store.send(.fetchLater(1_001, seconds: 1))
        #expect(await clock.waitForSleepers(1))
        await clock.advance(by: .seconds(1))
        await store.expect(\.value, 1_001)
        await store.expect(\.count, 1_000)
    }
}
