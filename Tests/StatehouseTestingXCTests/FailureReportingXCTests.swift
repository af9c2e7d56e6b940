import StatehouseCore
import XCTest

@testable import StatehouseTesting

/// StatehouseTesting's checks in XCTest test cases: a failing `send`, `receive`, `finish` or `expect` must reach
/// XCTest (a test that passed with them would hide every bug), at the caller's file and line, as an expected failure.
final class FailureReportingXCTests: FailureCapturingTestCase {
    func testAFailingSendReachesXCTestAtItsLine() async {
        let store = TestStore(reducer: Tally(), state: .init())
        let line = #line + 2
        let failures = await capturingFailures {
            await store.send(.increment) { $0.count = 2 }
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.line, line)
        XCTAssertEqual(failures.first?.filePath, #filePath)
        XCTAssertEqual(failures.first?.expected, true)
        XCTAssertTrue(failures.first?.description.contains("State after send(increment) differs") == true)
        XCTAssertTrue(failures.first?.description.contains("count: 2") == true)
    }

    func testAFailingReceiveReachesXCTestAtItsLine() async {
        let store = TestStore(reducer: Tally(), state: .init())
        await store.send(.load(3))
        let line = #line + 2
        let failures = await capturingFailures {
            await store.receive(.loaded(4)) { $0.loaded = 4 }
        }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertTrue(failures.first?.description.contains("Received an unexpected action") == true)
        await store.finish()
    }

    func testAFailingReceiveByCaseReachesXCTestAtItsLine() async {
        let store = TestStore(reducer: Tally(), state: .init())
        await store.send(.load(3))
        let line = #line + 2
        let failures = await capturingFailures {
            await store.receive(\.loaded, 4) { $0.loaded = 4 }
        }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertTrue(failures.first?.description.contains("with another payload") == true)
        await store.finish()
    }

    func testAFailingFinishReachesXCTestAtItsLine() async {
        let store = TestStore(reducer: Tally(), state: .init())
        await store.send(.load(1))
        await store.expect(\.loaded, 1)
        let line = #line + 2
        let failures = await capturingFailures {
            await store.finish()
        }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertTrue(failures.first?.description.contains("Must receive 1 action(s)") == true)
        XCTAssertTrue(failures.first?.description.contains("loaded(1)") == true)
    }

    func testAFailingStoreExpectReachesXCTestAtItsLine() async {
        let store = Store(reducer: Tally(), state: .init())
        _ = await store.send(.increment)
        let line = #line + 2
        let failures = await capturingFailures {
            await store.expect(\.count, 2, timeout: .milliseconds(50))
        }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(failures.first?.filePath, #filePath)
        XCTAssertTrue(failures.first?.description.contains("to become 2 within 0.05 seconds, but it is 1") == true)
    }

    func testAFailingTestStoreExpectReachesXCTestAtItsLine() async {
        let store = TestStore(reducer: Tally(), state: .init(), timeout: .milliseconds(50))
        let line = #line + 2
        let failures = await capturingFailures {
            await store.expect(\.count, 1)
        }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertTrue(failures.first?.description.contains("within 0.05 seconds, but it is 0") == true)
    }

    /// XCTest's running test case is process-wide, not task-local: a check on another task still reaches it.
    func testAFailureFromADetachedTaskReachesXCTest() async {
        let store = Store(reducer: Tally(), state: .init())
        let line = #line + 2
        let failures = await capturingFailures {
            await Task.detached { await store.expect(\.count, 5, timeout: .milliseconds(50)) }.value
        }
        XCTAssertEqual(failures.map(\.line), [line])
    }

    func testEveryFailureOfAStepIsReported() async {
        let store = TestStore(reducer: Tally(), state: .init())
        await store.send(.load(7))
        await store.expect(\.loaded, 7)
        let line = #line + 2
        let failures = await capturingFailures {
            await store.send(.increment) { $0.count = 3 }
        }
        // The unreceived loaded(7), then the wrong state: two failures at the same line.
        XCTAssertEqual(failures.map(\.line), [line, line])
        XCTAssertTrue(failures.first?.description.contains("loaded(7)") == true)
        XCTAssertTrue(failures.last?.description.contains("count: 3") == true)
    }

    func testAPassingFlowRecordsNoFailure() async {
        let store = TestStore(reducer: Tally(), state: .init())
        let failures = await capturingFailures {
            await store.send(.increment) { $0.count = 1 }
            await store.send(.load(2))
            await store.receive(.loaded(2)) { $0.loaded = 2 }
            await store.send(.load(3))
            await store.receive(\.loaded, 3) { $0.loaded = 3 }
            await store.send(.load(4))
            await store.expect(\.loaded, 4)
            await store.skipReceivedActions()
            await store.store.expect(\.count, 1)
            await store.finish()
        }
        XCTAssertEqual(failures, [])
    }

    /// The reporter's XCTest phases (``XCTestRunTracker``): what it does with a failure depends on them.
    func testTheTrackerFollowsTestCases() {
        XCTAssertEqual(XCTestRunTracker.shared.phase, .running)
        var state = XCTestRunTracker.State()
        XCTAssertEqual(state.phase, .unknown)
        state.apply(.failureReported)
        XCTAssertEqual(state.phase, .running)
        state.apply(.testCaseDidFinish)
        XCTAssertEqual(state.phase, .between)
        state.apply(.failureReported)
        XCTAssertEqual(state.phase, .between)
        state.apply(.testCaseWillStart)
        XCTAssertEqual(state.phase, .running)
        XCTAssertEqual(state.failuresReported, 2)
    }
}
