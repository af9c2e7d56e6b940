import Foundation

/// One store: a state, its reducer, a FIFO mailbox of actions, a version, observers, and the effects
/// it owns.
///
/// ```
///  enqueue/send (any thread) ──► mailbox (pthread mutex, FIFO) ──► drain on the actor:
///      for each action: drop if its effect run was cancelled; reduce; bump version if the state
///      changed and call observers; start the returned effect; call the action's completion
///  effects (tasks owned by the store) ──► Send ──► mailbox
/// ```
///
/// Guarantees:
/// - **FIFO.** Actions are reduced one at a time, strictly in the order they were enqueued, across
///   all threads; actions produced by effects go through the same mailbox.
/// - **Versions.** ``version`` starts at `0` and grows by exactly `1` per reduce that leaves the
///   state different (`!=`) from before. A reduce that leaves an equal state changes nothing and
///   notifies nobody.
/// - **Observers** (``observe(_:)``) see every distinct state in version order; a stream
///   (``states(bufferingPolicy:)``) sees them as its buffering keeps them (by default the newest only).
/// - **Cancellation is exact.** Once a ``Effect/cancel(_:)`` has been interpreted, no action
///   produced by the cancelled runs is reduced, even one already in the mailbox.
/// - **Settling.** ``sendAndSettle(_:timeout:)`` / ``enqueueAndSettle(_:timeout:completion:)``
///   report once an action and everything it started, transitively, have finished.
/// - **Start.** By default the store starts itself: the start is the first envelope of its mailbox, so
///   ``Reducer/bind()``'s effect is started before the first action is reduced (`startsAtInit: false` waits for
///   ``start()``).
/// - **Reset** (``enqueueReset(_:completion:notWritten:)``) is FIFO with actions and exact like a cancel; it restores
///   the initial state or keeps the state (``ResetMode``).
/// - **Events** (``observeEvents(_:)``) are delivered in one stream with state notifications.
/// - **Time** for timed effects and settle timeouts is the store's clock (`clock:` at init).
///
/// ## Lifetime
/// A store lives as long as someone holds it, as OneWay's does, not as long as its effects run: effect tasks, the
/// ``Send`` handle they pass to ``Effect/sequence(_:catch:)``, throttle windows and settle timeouts hold it weakly,
/// taking a strong reference only for a hop onto it or while an action they sent waits in the mailbox. A store whose
/// owner lets go of it is released even while an effect waits (a clock sleep, a network call, a `bind()` loop), and
/// its `deinit` cancels every effect task and timer, finishes every ``states(bufferingPolicy:)`` stream and completes
/// pending settles as settled. Until then it is held by whoever waits on it (``send(_:)``, ``sendAndSettle(_:timeout:)``,
/// ``untilIdle()``), by a scheduled or running drain of its mailbox (on the pool, or as a job of the executor it is
/// bound to) and by a journal write in flight: a store being drained is alive until the drain ends. An effect that
/// captures its own store keeps it alive; capture what it needs instead. A hosted store is stopped before it is
/// released (``enqueueStop(completion:)``).
///
/// ## Thread safety
/// An actor. State, version, observers and effect bookkeeping are isolated to it. ``enqueue(_:completion:)``
/// and ``send(_:)`` are `nonisolated`: they append to a lock-protected (pthread mutex) mailbox and return
/// (or suspend) without hopping onto the actor; the actor drains the mailbox. Reducers and observer
/// callbacks run on the actor, inside the drain, so they must be fast and must not block. The actor runs on Swift's
/// concurrency pool, or on the ``StoreExecutor`` given at init (an event loop): then reducers and observers run on it.
public actor Store<R: Reducer> {
    // Stored properties used on every action skip the run-time exclusivity check (`@exclusivity(unchecked)`): the
    // actor serializes every access, and no access to them overlaps another (a reducer cannot reach its store).
    // Measured (issue 14, callgrind, release, http-actions): the checks would cost about 1,900 instructions per
    // action (`holdsOutputs` 837, `reduce` 308, `snapshot` 304, `drain` and `currentGroup` 152 each).

    /// The number of distinct states since creation; starts at `0`, +1 per changing reduce.
    @exclusivity(unchecked) public internal(set) var version: UInt64 = 0
    /// The current state.
    @exclusivity(unchecked) public internal(set) var state: R.State

    let reducer: R
    /// The state given at init (`state:`), which ``ResetMode/restoringInitialState`` restores; for a recovered store
    /// (`recovered:`) too, not the state it recovered.
    public nonisolated let initialState: R.State
    let name: String
    let clock: StoreClock
    let logger: (@Sendable (String, StoreLogLineKind) -> Void)?
    let mailbox = Mailbox<Envelope>()
    /// The pool, or the executor given at init.
    nonisolated let home: StoreHome
    /// Envelopes taken from the mailbox and not handled yet, from `backlogStart` (see ``drain()``).
    @exclusivity(unchecked) var backlog: [Envelope] = []
    @exclusivity(unchecked) var backlogStart = 0

    /// In registration order; a short array (usually one entry) is a smaller heap block than a dictionary.
    @exclusivity(unchecked) var observers: [(token: ObservationToken, observer: Observer)] = []
    @exclusivity(unchecked) var eventObservers: [(token: ObservationToken, onEvent: @Sendable (R.Event) -> Void)] = []
    @exclusivity(unchecked) var taps: [@Sendable (ReducedAction<R.Action>) -> Void] = []
    var nextObservationID: UInt64 = 0

    var isStarted = false
    /// Set by a stop: every action after it is dropped.
    @exclusivity(unchecked) var isStopped = false
    /// What the store logs about its actions and states (``StoreLogging``); read once per action (one byte, in the
    /// padding after the flags above: an idle store pays nothing for it).
    @exclusivity(unchecked) public internal(set) var logging: StoreLogging
    /// Actions reduced and dropped, readable from any thread (metrics).
    public nonisolated let actionCounts = ActionCounts()
    @exclusivity(unchecked) var resetEpoch: UInt64 = 0
    /// Effect runs, tasks, settle groups, throttle windows and idle waiters (see `Store+Bookkeeping.swift`);
    /// `nil` until the first effect, settle or wait needs them, so a store that never runs one does not pay for them.
    @exclusivity(unchecked) var bookkeeping: Bookkeeping?

    /// Where batches are written and the batches in progress (nil: a store in memory only, which so pays one word for
    /// durability); see `Store+Journal.swift`.
    let journaling: Journaling?
    /// `journaling?.journal.gatesOutput`, read on every output: whether outputs wait for each batch's write
    /// (``StoreJournal/gatesOutput``).
    public nonisolated let gatesOutput: Bool

    /// Creates a store. With `startsAtInit` (the default) ``Reducer/bind()`` is started as the first envelope of the
    /// mailbox, so its effect is started before the first action is reduced; otherwise at ``start()``.
    ///
    /// - Parameters:
    ///   - reducer: The logic.
    ///   - state: The initial state (version `0`); ``ResetMode/restoringInitialState`` restores it.
    ///   - name: Names the store in log lines.
    ///   - clock: The clock every timed effect (``Effect/delayed(by:)``, ``Effect/debounce(_:for:)``,
    ///     ``Effect/throttle(_:for:latest:)``) and every settle timeout is measured on. Tests pass a
    ///     manual clock to control time.
    ///   - logger: Receives one line per effect error that has no `catch:` handler, and per emitted
    ///     event that is not an `R.Event`, and the lines `logging` asks for. `nil` writes the line to standard error.
    ///   - logging: What to log about each action and each new state (see ``StoreLogging``); default `[]`, nothing.
    ///     ``setLogging(_:)`` changes it later.
    ///   - executor: Where the actor runs (drains, observers, completions): `nil` for Swift's concurrency pool.
    ///     Effects run on the pool either way.
    ///   - recovered: Where a recovered store starts: its state and version (the journal's newest). `state` stays
    ///     the initial state a reset restores. `nil`: at `state`, version `0`.
    ///   - journal: Where each batch of changes is written (see ``StoreJournal``); `nil` for a store in memory.
    ///   - startsAtInit: Whether the store starts itself (``start()``, FIFO before any action): `true`, the default,
    ///     as OneWay's store does; `false` leaves the start to the owner, which first registers what must see bind's
    ///     actions (a test store's tap, a hosted store's observers) and then calls ``start()``.
    public init(
        reducer: R,
        state: R.State,
        name: String = "store",
        clock: any Clock<Duration> = ContinuousClock(),
        logger: (@Sendable (String) -> Void)? = nil,
        logging: StoreLogging = [],
        executor: (any StoreExecutor)? = nil,
        recovered: Snapshot<R.State>? = nil,
        journal: StoreJournal<R.Action, R.State>? = nil,
        startsAtInit: Bool = true
    ) {
        var lineLogger: (@Sendable (String, StoreLogLineKind) -> Void)?
        if let logger { lineLogger = { line, _ in logger(line) } }
        self.init(
            reducer: reducer, state: state, name: name, clock: clock, lineLogger: lineLogger, logging: logging,
            executor: executor, recovered: recovered, journal: journal, startsAtInit: startsAtInit)
    }

    /// Creates a store whose logger is told what each line is about (``StoreLogLineKind``): a logger with levels
    /// writes ``StoreLogging``'s records and the problems at different ones. The other parameters are those of
    /// ``init(reducer:state:name:clock:logger:logging:executor:recovered:journal:startsAtInit:)``.
    ///
    /// - Parameter lineLogger: Receives every line the store writes and its kind; `nil` writes the line to
    ///   standard error.
    public init(
        reducer: R,
        state: R.State,
        name: String = "store",
        clock: any Clock<Duration> = ContinuousClock(),
        lineLogger logger: (@Sendable (String, StoreLogLineKind) -> Void)?,
        logging: StoreLogging = [],
        executor: (any StoreExecutor)? = nil,
        recovered: Snapshot<R.State>? = nil,
        journal: StoreJournal<R.Action, R.State>? = nil,
        startsAtInit: Bool = true
    ) {
        home = executor.map { .bound($0) } ?? .pool(HomeActor())
        self.reducer = reducer
        self.state = recovered?.state ?? state
        self.version = recovered?.version ?? 0
        self.journaling = journal.map { Journaling($0) }
        self.gatesOutput = journal?.gatesOutput ?? false
        self.initialState = state
        self.name = name
        self.clock = StoreClock(clock)
        self.logger = logger
        self.logging = logging
        if startsAtInit {
            push(Envelope(payload: .start))
        }
    }

    /// The last reference is gone (see "Lifetime" above): effect tasks and timers are cancelled, streams finished, and
    /// settle waits completed as settled (their effects count as finished, as at a reset), on the executor the store is
    /// bound to or else right here. Nothing else is left to do: no mailbox can hold work (a scheduled drain or a journal
    /// write holds the store), and no ``untilIdle()`` waiter can wait (it holds the store too). No effect task can
    /// touch the store meanwhile: their weak references are already nil.
    deinit {
        for (_, observer) in observers { observer.storeStopped() }
        guard let bookkeeping else { return }
        for task in bookkeeping.tasks.values { task.cancel() }
        for window in bookkeeping.throttles.values { window.timer.cancel() }
        bookkeeping.timeoutWatcher?.task.cancel()
        let waiting = bookkeeping.settleGroups.sorted { $0.key.rawValue < $1.key.rawValue }.map(\.value.request)
        guard !waiting.isEmpty else { return }
        let final = Snapshot(version: version, state: state)
        let settleAll: @Sendable () -> Void = {
            for request in waiting { request.completion(.success(final)) }
        }
        if case .bound(let executor) = home { executor.execute(settleAll) } else { settleAll() }
    }

    /// The executor of ``StoreHome``: the pool through a private actor, or the one given at init.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        home.unownedExecutor
    }

    /// The current state and version, read together.
    public var snapshot: Snapshot<R.State> {
        Snapshot(version: version, state: state)
    }

    /// Starts the reducer's ``Reducer/bind()`` effect. Idempotent: only the first call does anything (a store made with
    /// `startsAtInit: true` has started itself once its first envelope was handled, or starts now if that is still
    /// queued; the queued start then does nothing).
    public func start() {
        guard !isStarted else { return }
        isStarted = true
        startBind()
    }

    /// The number of effect tasks still running (including cancelled ones not yet unwound), ``Reducer/bind()``'s
    /// among them (which ``isIdle`` leaves out).
    ///
    /// For tests and metrics. Actions enqueued directly by ``Effect/just(_:)`` use no task.
    public var runningEffectCount: Int {
        tasks.count
    }

    /// The number of effect-produced actions dropped at reduce time because their run had been
    /// cancelled (for tests; a `Send` from an already-cancelled task enqueues nothing and is not counted).
    package var droppedActionCount: Int {
        Int(actionCounts.dropped)
    }

    /// Writes one line of the given kind to the logger, or to standard error without one.
    nonisolated func log(_ line: String, _ kind: StoreLogLineKind = .problem) {
        if let logger {
            logger(line, kind)
        } else {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }
}
