public import StatehouseCore

/// Drives a real ``Store`` step by step from a test and checks every state change and every action
/// its effects produce, reporting a failure at the caller's line on any mismatch, to whichever test runner is
/// active (Swift Testing or XCTest).
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(reducer: Counter(), state: .init(), clock: clock)  // exhaustive
/// await store.send(.increment) { $0.count = 1 }        // the exact change this action makes
/// await clock.advance(by: .seconds(1))
/// await store.receive(.response(42)) { $0.value = 42 } // the next effect-produced action
/// await store.finish()                                 // no effect left running, nothing unreceived
/// ```
///
/// How it works: the test store owns a ``Store`` built with the given clock and, before the first
/// step, registers a tap (every handled action, in reduce order) and an observer (every new
/// state). Each step compares against those reports, so it sees exactly what the store did; waits
/// (`receive`, `finish`, `expect`) are woken by the reports or by the store becoming idle, never by
/// polling, and give up after a timeout measured on the real (continuous) clock.
///
/// The test store remembers the state the test last asserted (or, after skipped steps, the real
/// state then). `send` and `receive` take a closure that mutates a copy of it into the expected
/// state; with ``Exhaustivity/on`` the result must equal the store's state right after that action.
/// On a mismatch the failure shows a line diff of `dump(expected)` against `dump(actual)`.
///
/// Failures go to whichever test runner is active, at the `fileID`/`filePath`/`line`/`column` of the call: in a
/// Swift Testing test an `Issue` (wrap a step in `withKnownIssue` to assert that it fails), in an XCTest test an
/// `XCTFail` (the test case's `recordFailure(withDescription:inFile:atLine:expected:)`, an expected failure), with
/// neither running a line on standard error. Every StatehouseTesting check reports the same way (see
/// `Store.expect(_:_:timeout:fileID:filePath:line:column:)`).
///
/// ## Thread safety
/// Not `Sendable`: use one test store from one task (the test). Its methods are
/// `nonisolated(nonsending)` and run on the caller's isolation, so a `@MainActor` test works too.
public final class TestStore<R: Reducer> {
    /// The store under test. Sending to it directly bypasses the test store's checks.
    public let store: Store<R>
    /// How strictly unasserted changes and actions are checked; default ``Exhaustivity/on``.
    public var exhaustivity: Exhaustivity = .on
    /// The default wait of `receive`, `finish` and `expect`, on the real clock; default 10 s (an upper bound, not a
    /// delay: a step returns as soon as what it waits for happens; generous because a loaded test machine can hold
    /// Swift's concurrency pool, where effects run, for seconds).
    public var timeout: Duration

    let recorder: TestStoreRecorder<R.State, R.Action>
    /// The state the next step's closure starts from.
    var baseline: R.State
    /// The index of the first recorded action no step has consumed yet.
    var cursor = 0
    private var isInstalled = false
    /// Where the test store was made: a release with unreceived actions is reported there.
    private let creation: CallSite

    /// Creates a store for the test; nothing runs until the first step. The store does not start itself
    /// (`startsAtInit: false`): ``Reducer/bind()`` runs at the ``start()`` step.
    ///
    /// - Parameters:
    ///   - reducer: The logic under test.
    ///   - state: The initial state (version `0`).
    ///   - clock: The store's clock for timed effects, usually a ``TestClock``; default
    ///     `ContinuousClock()`.
    ///   - timeout: The default wait of `receive`, `finish` and `expect` (real time); default 10 s.
    ///
    /// With ``Exhaustivity/on``, a test store released while actions its effects produced were never received (no
    /// `receive`, `skipReceivedActions()` or `finish()` took them) reports a failure at this call (TCA's `TestStore`
    /// does the same): a test that stops early cannot pass by leaving its effects unchecked. Effects still running
    /// then are cancelled with the store; `finish()` is the step that waits for them.
    public init(
        reducer: R,
        state: R.State,
        clock: any Clock<Duration> = ContinuousClock(),
        timeout: Duration = .seconds(10),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        FailureReporter.prepare()
        self.creation = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        // Not started at init: an exhaustive test asks for bind's actions with its `start()` step.
        self.store = Store(reducer: reducer, state: state, name: "test store", clock: clock, startsAtInit: false)
        self.recorder = TestStoreRecorder(initial: Snapshot(version: 0, state: state))
        self.baseline = state
        self.timeout = timeout
    }

    deinit {
        guard exhaustivity == .on, isInstalled else { return }
        let unreceived = recorder.actions(from: cursor).actions.filter(\.isReceivable)
        guard !unreceived.isEmpty else { return }
        let list = RecordedAction.list(unreceived.prefix(10))
        let more = unreceived.count > 10 ? "\n  … and \(unreceived.count - 10) more" : ""
        creation.fail(
            "The test store was released with \(unreceived.count) action(s) produced by effects and never received; "
                + "receive them, call skipReceivedActions(), or end the test with finish():\n\(list)\(more)"
        )
    }

    /// The newest state the store has reported.
    public var state: R.State {
        recorder.latest.snapshot.state
    }

    /// Starts the reducer's ``Reducer/bind()`` effect (see ``Store/start()``); the actions it
    /// produces are then `receive`d like any other.
    public nonisolated(nonsending) func start() async {
        await install()
        await store.start()
    }

    /// Registers the tap and the observer once, before anything reaches the store.
    nonisolated(nonsending) func install() async {
        guard !isInstalled else { return }
        isInstalled = true
        let recorder = recorder
        await store.tap { recorder.record($0) }
        let registration = await store.observe { recorder.record($0) }
        recorder.record(registration.current)
    }
}
