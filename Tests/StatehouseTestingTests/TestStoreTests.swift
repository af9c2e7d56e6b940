import StatehouseCore
import StatehouseTesting
import Testing

@Suite struct TestStoreTests {
    @Test func sendAssertsTheExactChange() async {
        let store = TestStore(reducer: Counter(), state: .init())
        let snapshot = await store.send(.increment) { $0.count = 1 }
        await store.send(.increment) { $0.count = 2 }
        await store.send(.noop)
        #expect(snapshot.version == 1)
        #expect(store.state.count == 2)
        await store.finish()
    }

    @Test func aWrongSendExpectationIsReportedAtTheCallSite() async {
        let store = TestStore(reducer: Counter(), state: .init())
        let expectedLine = #line + 2
        await withKnownIssue {
            await store.send(.increment) { $0.count = 2 }
        } matching: { issue in
            let text = String(describing: issue)
            return issue.sourceLocation?.line == expectedLine
                && issue.sourceLocation?.fileID == #fileID
                && text.contains("− ") && text.contains("count: 2") && text.contains("+ ") && text.contains("count: 1")
        }
    }

    @Test func anUnassertedChangeFailsInExhaustiveMode() async {
        let store = TestStore(reducer: Counter(), state: .init())
        await withKnownIssue {
            await store.send(.increment)
        }
        // The baseline follows the real state, so the next step is judged on its own.
        await store.send(.increment) { $0.count = 2 }
    }

    @Test func receiveChecksTheActionAndItsChange() async {
        let store = TestStore(reducer: Counter(), state: .init())
        await store.send(.fetch(42))
        await store.receive(.response(42)) { $0.value = 42 }
        await store.finish()
    }

    @Test func receivingTheWrongActionIsReported() async {
        let store = TestStore(reducer: Counter(), state: .init())
        await store.send(.fetch(42))
        await withKnownIssue {
            await store.receive(.response(7)) { $0.value = 7 }
        } matching: { issue in
            String(describing: issue).contains("unexpected action")
        }
        await store.finish()
    }

    @Test func receiveTimesOutWhenNothingArrives() async {
        let store = TestStore(reducer: Counter(), state: .init(), timeout: .milliseconds(50))
        await store.send(.increment) { $0.count = 1 }
        await withKnownIssue {
            await store.receive(.response(1))
        } matching: { issue in
            String(describing: issue).contains("no action arrived")
        }
    }

    @Test func receivedActionsArriveInOrder() async {
        let store = TestStore(reducer: Counter(), state: .init())
        await store.send(.fetchMany(3))
        await store.receive(.response(1)) { $0.value = 1 }
        await store.receive(.response(2)) { $0.value = 2 }
        await store.receive(.response(3)) { $0.value = 3 }
        await store.finish()
    }

    @Test func unreceivedActionsFailAtFinish() async {
        let store = TestStore(reducer: Counter(), state: .init())
        await store.send(.fetch(1))
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            String(describing: issue).contains("Must receive 1 action")
        }
    }

    @Test func unreceivedActionsFailAtTheNextSend() async {
        let store = TestStore(reducer: Counter(), state: .init())
        await store.send(.fetch(5))
        await store.expect(\.value, 5)
        await withKnownIssue {
            await store.send(.increment) { $0.count = 1 }
        } matching: { issue in
            String(describing: issue).contains("response(5)")
        }
        await store.finish()
    }

    @Test func nonExhaustiveModeChecksOnlyWhatIsAsserted() async {
        let store = TestStore(reducer: Counter(), state: .init())
        store.exhaustivity = .off
        await store.send(.increment)
        await store.send(.fetchMany(3))
        await store.receive(.response(3)) { $0.value = 3 }
        await store.send(.rename("x")) { $0.label = "x" }
        await store.finish()
        #expect(store.state == Counter.State(count: 1, value: 3, label: "x"))
    }

    @Test func nonExhaustiveModeStillReportsWrongAssertions() async {
        let store = TestStore(reducer: Counter(), state: .init())
        store.exhaustivity = .off
        await withKnownIssue {
            await store.send(.rename("a")) { $0.label = "b" }
        }
    }

    @Test func timedEffectsFollowTheTestClock() async {
        let clock = TestClock()
        let store = TestStore(reducer: Counter(), state: .init(), clock: clock)
        await store.send(.fetchLater(9, seconds: 10))
        #expect(await clock.waitForSleepers(1))
        await clock.advance(by: .seconds(10))
        await store.receive(.response(9)) { $0.value = 9 }
        await store.finish()
    }

    @Test func finishFailsWhileAnEffectIsStillRunning() async {
        let clock = TestClock()
        let store = TestStore(reducer: Counter(), state: .init(), clock: clock, timeout: .milliseconds(50))
        await store.send(.fetchLater(9, seconds: 10))
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            String(describing: issue).contains("still running")
        }
        await store.send(.cancelFetches)
        await store.finish()
    }

    @Test func expectWaitsForTheStateAndReportsATimeout() async {
        let store = TestStore(reducer: Counter(), state: .init(), timeout: .milliseconds(50))
        store.exhaustivity = .off
        await store.send(.fetchMany(3))
        await store.expect(\.value, 3)
        await withKnownIssue {
            await store.expect(\.value, 4)
        } matching: { issue in
            String(describing: issue).contains("but it is 3")
        }
    }

    @Test func aThrowingStateClosureIsReported() async {
        struct Boom: Error {}
        let store = TestStore(reducer: Counter(), state: .init())
        await withKnownIssue {
            await store.send(.increment) { _ in throw Boom() }
        } matching: { issue in
            String(describing: issue).contains("threw")
        }
    }
}
