import Foundation
import SQLite
import Synchronization
import Locking

/// The one thread that writes a store database, with group commit.
///
/// Loop: wait for requests; take ALL queued; `BEGIN IMMEDIATE`; apply each in queue order (run a batch's `encode`,
/// insert its journal rows and keys, snapshot the store when due and compact it); `COMMIT`; then call each request's
/// `done` in queue order. While one `COMMIT` (its `fsync`) runs, new requests queue and go into the next transaction
/// together, so under load one `fsync` serves many requests.
///
/// Per ``SyncMode``: `commit` and `off` start a transaction as soon as a request is queued (`off` with
/// `synchronous = OFF`); `interval` starts at most one per `intervalMs` (a request queued within `intervalMs` of the
/// last transaction's start waits for that tick; after a quiet period it goes at once).
///
/// A failed transaction (any statement, or `COMMIT`) is rolled back. In `commit` mode each of its requests gets
/// `done(error)` and is dropped (the stores roll their state back). In `interval` and `off` mode its requests stay
/// queued, in order, ahead of newer ones; the health handler gets the error once, and the transaction is retried
/// every `intervalMs` until it works (then the handler gets nil, and each `done(nil)`).
///
/// Lifecycle: `running` → `draining` (``stop()``: what is queued is still committed; new requests fail at once;
/// a transaction that keeps failing is tried 3 times, then its requests fail) → `stopped` (the WAL checkpointed
/// with `TRUNCATE` and the connection closed).
///
/// ## Thread safety
/// `@unchecked Sendable`: the queue, phase, handler and pending cap change are guarded by `condition`; the
/// connection, the snapshot counters and the retry list are touched only by the writer thread (and by `init`,
/// before it starts).
final class StoreWriter: @unchecked Sendable {
    let path: String
    let configuration: StorageConfiguration
    /// Gets the line of acknowledged batches lost when a failing transaction is given up at shutdown.
    let logger: Logger
    /// Committed transactions so far (tests count group commits with it).
    let committedTransactions = Atomic<Int>(0)
    /// Transactions rolled back so far (a statement or the `COMMIT` failed; retried ones count each time; metrics).
    let failedTransactions = Atomic<Int>(0)
    /// Write requests (an action batch, a reset, a store created or deleted) in committed transactions (metrics).
    let committedRequests = Atomic<Int>(0)
    /// How long each transaction took, `BEGIN` to `COMMIT` returning (its `fsync` included; metrics).
    let transactionTimes = DurationHistogram(upperBoundsNs: DurationHistogram.reduceBoundsNs)

    /// Guards `queue`, `phase`, `healthHandler` and `pendingMaxPageCount`, and is what the writer thread sleeps on:
    /// a condition variable, which `Locked` does not offer (the one lock that is not a `Locked`).
    private let condition = NSCondition()
    private var queue: [WriteRequest] = []
    private var phase: Phase = .running
    private var healthHandler: (@Sendable (StorageError?) -> Void)?
    private var pendingMaxPageCount: Int?
    private let stopped = DispatchSemaphore(value: 0)

    // Writer thread only.
    let connection: Connection
    var counters: [Int64: SnapshotCounter]
    var lastKeySweepMs: Int64 = 0
    /// Stores given idempotency keys since the last sweep (the only ones that can be over `keysPerStore`).
    var keyedSinceSweep: Set<Int64> = []
    private var carried: [PendingWrite] = []
    private var failure: StorageError?

    private enum Phase { case running, draining, stopped }

    /// The tries a failing transaction gets once ``stop()`` was called, before its requests fail.
    private static let drainAttempts = 3
    /// Idempotency keys kept per store (the newest): as many as the server's memory keeps (`IdempotencyCache`).
    static let keysPerStore = 10_000

    init(path: String, configuration: StorageConfiguration, connection: Connection,
         counters: [Int64: SnapshotCounter], logger: Logger) {
        self.path = path
        self.logger = logger
        self.configuration = configuration
        self.connection = connection
        self.counters = counters
    }

    /// Starts the writer thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "statehouse-storage"
        thread.start()
    }

    /// Queues `request`; after ``stop()`` it fails at once (on the calling thread) with "the database is closed".
    func enqueue(_ request: WriteRequest) {
        condition.lock()
        guard phase == .running else {
            condition.unlock()
            request.complete(StorageError(path: path, operation: "write", message: "the database is closed"),
                             createdID: 0)
            return
        }
        queue.append(request)
        condition.signal()
        condition.unlock()
    }

    /// Sets the handler told when writing starts failing (the error) or works again (nil), in `interval`/`off` mode.
    func onHealthChange(_ handler: @escaping @Sendable (StorageError?) -> Void) {
        condition.lock()
        healthHandler = handler
        condition.unlock()
    }

    /// Changes the size cap (`PRAGMA max_page_count`, in pages) before the next transaction.
    func changeMaxPageCount(_ pages: Int) {
        condition.lock()
        pendingMaxPageCount = pages
        condition.signal()
        condition.unlock()
    }

    /// Commits what is queued, checkpoints the WAL, closes the connection and returns once the thread ended.
    func stop() {
        condition.lock()
        let wasRunning = phase == .running
        if wasRunning { phase = .draining }
        condition.signal()
        condition.unlock()
        if wasRunning { stopped.wait() }
    }

    private func run() {
        var nextStart = Date.distantPast
        var drainAttempts = 0
        while true {
            condition.lock()
            while queue.isEmpty && carried.isEmpty && phase == .running { condition.wait() }
            let ticking = configuration.sync == .interval || !carried.isEmpty
            while ticking && (phase == .running || !carried.isEmpty) && Date() < nextStart {
                _ = condition.wait(until: nextStart)
            }
            let draining = phase != .running
            if queue.isEmpty && carried.isEmpty {
                condition.unlock()
                break
            }
            var batch = carried + queue.map(PendingWrite.init)
            queue.removeAll(keepingCapacity: true)
            let maxPageCount = pendingMaxPageCount
            pendingMaxPageCount = nil
            let handler = healthHandler
            condition.unlock()

            carried = []
            nextStart = Date(timeIntervalSinceNow: Double(configuration.intervalMs) / 1_000)
            if let maxPageCount { _ = try? connection.pragma("max_page_count = \(maxPageCount)") }
            let started = MonotonicClock.nowNs()
            let transactionError = transact(&batch)
            transactionTimes.record(nanoseconds: MonotonicClock.nowNs() &- started)
            if let error = transactionError {
                failedTransactions.add(1, ordering: .relaxed)
                if draining { drainAttempts += 1 }
                if configuration.sync == .commit || drainAttempts >= Self.drainAttempts {
                    if configuration.sync != .commit {
                        let batches = batch.filter { if case .append = $0.request { true } else { false } }.count
                        logger.error(
                            "\(error); closing: \(batches) acknowledged batch(es) of actions (sync \(configuration.sync.rawValue)) "
                                + "could not be written and are lost")
                    }
                    for pending in batch { pending.request.complete(error, createdID: 0) }
                } else {
                    carried = batch
                    if failure == nil {
                        failure = error
                        handler?(error)
                    }
                }
            } else {
                committedTransactions.add(1, ordering: .relaxed)
                committedRequests.add(batch.count, ordering: .relaxed)
                if failure != nil {
                    failure = nil
                    handler?(nil)
                }
                for pending in batch { pending.request.complete(pending.refusal, createdID: pending.createdID) }
            }
        }
        _ = try? connection.pragma("wal_checkpoint(TRUNCATE)")
        connection.close()
        condition.lock()
        phase = .stopped
        condition.unlock()
        stopped.signal()
    }
}
