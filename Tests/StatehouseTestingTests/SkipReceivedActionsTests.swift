import StatehouseCore
import StatehouseTesting
import Testing

/// `skipReceivedActions(strict:)`: TCA's, on the received actions so far.
@Suite struct SkipReceivedActionsTests {
    @Test func consumesTheReceivedActionsAndMovesTheBaseline() async {
        let store = TestStore(reducer: Counter(), state: .init())
        await store.send(.fetchMany(3))
        await store.expect(\.value, 3)
        await store.skipReceivedActions()
        // Exhaustive: the next step starts from value 3 and nothing is left to receive.
        await store.send(.increment) { $0.count = 1 }
        await store.finish()
    }

    @Test func actionsArrivingLaterStillHaveToBeReceived() async {
        let clock = TestClock()
        let store = TestStore(reducer: Counter(), state: .init(), clock: clock)
        await store.send(.fetch(1))
        await store.expect(\.value, 1)
        await store.skipReceivedActions()
        await store.send(.fetchLater(2, seconds: 5))
        #expect(await clock.waitForSleepers(1))
        await clock.advance(by: .seconds(5))
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            String(describing: issue).contains("response(2)")
        }
    }

    @Test func strictReportsWhenThereIsNothingToSkip() async {
        let store = TestStore(reducer: Counter(), state: .init())
        await store.send(.increment) { $0.count = 1 }
        let expectedLine = #line + 2
        await withKnownIssue {
            await store.skipReceivedActions()
        } matching: { issue in
            issue.sourceLocation?.line == expectedLine
                && String(describing: issue).contains("no received actions to skip")
        }
    }

    @Test func notStrictAcceptsNothingToSkip() async {
        let store = TestStore(reducer: Counter(), state: .init())
        await store.send(.increment) { $0.count = 1 }
        await store.skipReceivedActions(strict: false)
        await store.finish()
    }
}
