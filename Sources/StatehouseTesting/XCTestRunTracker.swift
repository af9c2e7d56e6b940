#if canImport(XCTest)
import Locking
import XCTest

/// Follows XCTest's test cases (an `XCTestObservation` observer), so that ``FailureReporter`` knows whether an
/// `XCTFail` would reach a test case; corelibs XCTest drops one that arrives while none is running, silently.
///
/// Lifecycle (an explicit state machine, see ``Phase``):
/// ```
/// unknown ──testCaseWillStart──▶ running ──testCaseDidFinish──▶ between ──testCaseWillStart──▶ running
///    └──────XCTest reported a failure back (didFail)──▶ running
/// ```
/// The observer is registered on first use of StatehouseTesting (``FailureReporter/prepare()``), which is usually
/// inside a test case already: the phase is `unknown` until the next test case starts. It is also `unknown` for a
/// whole process where XCTest runs nothing (Swift Testing's own run).
///
/// What a failure does in each phase:
/// - `running`: `XCTFail` at the call site; taken.
/// - `between`: nothing reaches XCTest (an effect outliving its test, say); not taken.
/// - `unknown`: `XCTFail` at the call site, taken if XCTest reports it back to observers. A test case that
///   overrides `recordFailure` without calling `super` receives it without reporting it back, so the failure is
///   also written to standard error then.
///
/// ## Thread safety
/// `Sendable`: the phase sits behind one `Locked`; XCTest calls the observer on its own thread, reports come from any
/// task. `XCTFail` is called with the lock released (it calls back into the observer).
final class XCTestRunTracker: NSObject, XCTestObservation, Sendable {
    /// Where XCTest is (see the diagram on ``XCTestRunTracker``).
    enum Phase: Equatable, Sendable {
        case unknown, running, between
    }

    /// What the observer hears from XCTest.
    enum Event: Sendable {
        case testCaseWillStart, testCaseDidFinish, failureReported
    }

    /// The phase and the number of failures XCTest reported back.
    struct State: Sendable {
        var phase = Phase.unknown
        var failuresReported: UInt64 = 0

        /// The transition for `event` (see the diagram).
        mutating func apply(_ event: Event) {
            switch event {
            case .testCaseWillStart:
                phase = .running
            case .testCaseDidFinish:
                phase = .between
            case .failureReported:
                failuresReported += 1
                if phase == .unknown { phase = .running }
            }
        }
    }

    /// The one tracker, registered with `XCTestObservationCenter.shared` on first use.
    static let shared: XCTestRunTracker = {
        let tracker = XCTestRunTracker()
        XCTestObservationCenter.shared.addTestObserver(tracker)
        return tracker
    }()

    private let state = Locked(State())

    /// Registers the tracker if it is not yet.
    static func register() {
        _ = shared
    }

    /// The current phase.
    var phase: Phase {
        state.withLock { $0.phase }
    }

    /// Gives `message` to XCTest at `site`, if a test case can take it.
    ///
    /// - Returns: `true` when XCTest took it, `false` when the caller must report it another way.
    func report(_ message: String, at site: CallSite) -> Bool {
        let before = state.withLock { $0 }
        switch before.phase {
        case .between:
            return false
        case .running:
            XCTFail(message, file: site.filePath, line: site.line)
            return true
        case .unknown:
            XCTFail(message, file: site.filePath, line: site.line)
            return state.withLock { $0.failuresReported != before.failuresReported }
        }
    }

    func testCaseWillStart(_ testCase: XCTestCase) {
        state.withLock { $0.apply(.testCaseWillStart) }
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        state.withLock { $0.apply(.testCaseDidFinish) }
    }

    func testCase(
        _ testCase: XCTestCase,
        didFailWithDescription description: String,
        inFile filePath: String?,
        atLine lineNumber: Int
    ) {
        state.withLock { $0.apply(.failureReported) }
    }
}
#endif
