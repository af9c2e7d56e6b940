import StatehouseCore
import StatehouseTesting
import Testing

/// `receive(\.case)` and `receive(\.case, payload)` on a reducer whose actions are not `Equatable`.
@Suite struct TestStoreCaseReceiveTests {
    @Test func receivesByCase() async {
        let store = TestStore(reducer: Loader(), state: .init())
        await store.send(.load(3))
        await store.receive(\.loaded) { $0.value = 3 }
        await store.finish()
    }

    @Test func receivesByCaseAndPayload() async {
        let store = TestStore(reducer: Loader(), state: .init())
        await store.send(.loadAll([1, 2]))
        await store.receive(\.loaded, 1) { $0.value = 1 }
        await store.receive(\.loaded, 2) { $0.value = 2 }
        await store.finish()
    }

    @Test func namesACaseWithoutPayloadInFailures() async {
        let store = TestStore(reducer: Loader(), state: .init(), timeout: .milliseconds(50))
        await withKnownIssue {
            await store.receive(\.wasStarted)
        } matching: { issue in
            String(describing: issue).contains("receive(\\Action.<case with no payload>) within")
        }
    }

    @Test func receivesACaseWithoutPayload() async {
        let store = TestStore(reducer: Loader(), state: .init())
        await store.send(.start)
        await store.receive(\.wasStarted) { $0.isStarted = true }
        await store.finish()
    }

    @Test func receivesACaseWhosePayloadIsNotEquatable() async {
        let store = TestStore(reducer: Loader(), state: .init())
        await store.send(.fail("offline"))
        await store.receive(\.failed) { $0.problem = "offline" }
        await store.finish()
    }

    @Test func anotherCaseIsReportedAndConsumed() async {
        let store = TestStore(reducer: Loader(), state: .init())
        await store.send(.fail("offline"))
        let expectedLine = #line + 2
        await withKnownIssue {
            await store.receive(\.loaded) { $0.value = 1 }
        } matching: { issue in
            let text = String(describing: issue)
            return issue.sourceLocation?.line == expectedLine
                && text.contains("expected one of \\Action.<case with Int>") && text.contains("failed(")
        }
        // The mismatched action was consumed: nothing is left to receive.
        await store.finish()
        #expect(store.state.problem == "offline")
    }

    @Test func anotherPayloadIsReportedWithADiff() async {
        let store = TestStore(reducer: Loader(), state: .init())
        await store.send(.load(3))
        await withKnownIssue {
            await store.receive(\.loaded, 4) { $0.value = 4 }
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("of \\Action.<case with Int> with another payload") && text.contains("− - 4")
                && text.contains("+ - 3")
        }
        await store.finish()
    }

    @Test func theStateChangeIsCheckedAsInSend() async {
        let store = TestStore(reducer: Loader(), state: .init())
        await store.send(.load(3))
        await withKnownIssue {
            await store.receive(\.loaded, 3) { $0.value = 30 }
        } matching: { issue in
            String(describing: issue).contains("differs from the expectation")
        }
        await store.finish()
    }

    @Test func anUnassertedChangeFailsInExhaustiveMode() async {
        let store = TestStore(reducer: Loader(), state: .init())
        await store.send(.load(3))
        await withKnownIssue {
            await store.receive(\.loaded)
        } matching: { issue in
            String(describing: issue).contains("value: 3")
        }
    }

    @Test func nonExhaustiveModeSkipsOtherCasesUntilAMatch() async {
        let store = TestStore(reducer: Loader(), state: .init())
        store.exhaustivity = .off
        await store.send(.start)
        await store.send(.loadAll([1, 2, 3]))
        await store.receive(\.loaded, 3) { $0.value = 3 }
        await store.finish()
        #expect(store.state == Loader.State(value: 3, problem: "", isStarted: true))
    }

    @Test func timesOutWhenNoActionArrives() async {
        let store = TestStore(reducer: Loader(), state: .init(), timeout: .milliseconds(50))
        await withKnownIssue {
            await store.receive(\.loaded)
        } matching: { issue in
            String(describing: issue).contains("no action arrived")
        }
    }
}
