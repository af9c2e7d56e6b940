import StatehouseCore
import StatehouseTesting
import Testing

/// A test store released with effect actions nobody received reports them at the line that made it (TCA's rule), so a
/// test that stops early cannot pass with its effects unchecked.
@Suite struct TestStoreReleaseTests {
    @Test func releasingWithUnreceivedActionsFailsWhereTheStoreWasMade() async {
        let madeAt = #line + 3
        await withKnownIssue {
            do {
                let store = TestStore(reducer: Counter(), state: .init())
                await store.send(.fetch(7))
                await store.expect(\.value, 7)  // the effect's .response(7) is reduced, and never received
                await store.store.untilIdle()  // a turn on the store: its tap has recorded the action too
            }
        } matching: { issue in
            issue.sourceLocation?.line == madeAt
                && String(describing: issue).contains("released with 1 action(s) produced by effects")
                && String(describing: issue).contains("response(7)")
        }
    }

    @Test func releasingAfterReceivingOrSkippingReportsNothing() async {
        do {
            let store = TestStore(reducer: Counter(), state: .init())
            await store.send(.fetch(7))
            await store.receive(.response(7)) { $0.value = 7 }
        }
        do {
            let store = TestStore(reducer: Counter(), state: .init())
            await store.send(.fetch(8))
            await store.expect(\.value, 8)
            await store.skipReceivedActions()
        }
        do {
            let store = TestStore(reducer: Counter(), state: .init())
            store.exhaustivity = .off
            await store.send(.fetch(9))
            await store.expect(\.value, 9)
        }
    }
}
