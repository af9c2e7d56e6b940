import Foundation
import SQLite
@testable import StatehouseServer
import Testing
import Locking

/// The store database on real files in a temporary directory: recovery after a reopen, group commit, snapshot
/// cadence and compaction, size caps and write failures per sync mode, the single-server lock, online backup and
/// idempotency key expiry.
@Suite struct StoreDatabaseTests {
    /// The databases' log lines are kept in memory (they are not what these tests look at).
    static let logger = Logger(handler: InMemoryLogHandler())

    // MARK: Recovery

    @Test func recoveryAfterReopenStartsFromTheRightSnapshot() throws {
        let files = try StorageFiles()
        defer { files.remove() }
        var configuration = files.configuration(.commit)
        configuration.snapshotEveryActions = 20
        let database = try StoreDatabase.open(configuration, logger: Self.logger)
        let id = try files.createStore(database, name: "counter")
        for start in stride(from: UInt64(1), through: 46, by: 5) {
            #expect(files.append(database, storeID: id, versions: start...start + 4) == nil)
        }
        database.close()

        let reopened = try StoreDatabase.open(configuration, logger: Self.logger)
        defer { reopened.close() }
        let stores = try reopened.stores()
        #expect(stores == [StoredStore(id: id, name: "counter", reducer: "Counter", initialState: nil,
                                       epoch: "epoch-counter", createdBy: .put)])
        #expect(try reopened.snapshots(storeID: id).map(\.version) == [0, 20, 40])
        #expect(try reopened.retained(storeID: id) == 0...50)

        let newest = try reopened.recovery(storeID: id, historySize: 0)
        #expect(newest.base == StoredSnapshot(version: 40, state: StorageFiles.state(40)))
        #expect(newest.rows.map(\.version) == Array(41...50))
        #expect(newest.rows.first == JournalRow(version: 41, origin: .external, action: StorageFiles.action(41),
                                                timeMs: 41))
        let withHistory = try reopened.recovery(storeID: id, historySize: 25)
        #expect(withHistory.base.version == 20)
        #expect(withHistory.rows.map(\.version) == Array(21...50))
        let all = try reopened.recovery(storeID: id, historySize: 1_000)
        #expect(all.base == StoredSnapshot(version: 0, state: StorageFiles.state(0)))
        #expect(all.rows.count == 50)

        #expect(try reopened.stateInputs(storeID: id, at: 33)?.base.version == 20)
        #expect(try reopened.stateInputs(storeID: id, at: 33)?.rows.map(\.version) == Array(21...33))
        #expect(try reopened.log(storeID: id, since: 45, limit: 3).map(\.version) == [46, 47, 48])
        #expect(try reopened.retained(storeID: id + 1) == nil)
        #expect(throws: StorageError.self) { try reopened.recovery(storeID: id + 1, historySize: 0) }
    }

    @Test func aResetSnapshotsAtOnceAndDeleteStoreRemovesEverything() throws {
        let files = try StorageFiles()
        defer { files.remove() }
        let database = try StoreDatabase.open(files.configuration(.commit), logger: Self.logger)
        defer { database.close() }
        let kept = try files.createStore(database, name: "kept")
        let gone = try files.createStore(database, name: "gone")
        #expect(files.append(database, storeID: kept, versions: 1...3, origin: .reset, forceSnapshot: true) == nil)
        #expect(try database.snapshots(storeID: kept).map(\.version) == [0, 3])
        #expect(files.append(database, storeID: gone, versions: 1...3) == nil)
        let deleted = Completion<StorageError?>()
        database.deleteStore(id: gone) { deleted($0) }
        #expect(deleted.wait().map { $0 == nil } == true)
        #expect(try database.stores().map(\.name) == ["kept"])
        #expect(try database.retained(storeID: gone) == nil)
        #expect(try database.log(storeID: gone, since: 0, limit: 100).isEmpty)
        #expect(try database.log(storeID: kept, since: 0, limit: 100).map(\.origin) == [.reset, .reset, .reset])
    }

    @Test func closeCommitsWhatIsQueued() throws {
        let files = try StorageFiles()
        defer { files.remove() }
        var configuration = files.configuration(.interval)
        configuration.intervalMs = 60_000  // no tick would come in time: close itself must commit
        let database = try StoreDatabase.open(configuration, logger: Self.logger)
        let id = try files.createStore(database, name: "counter")  // the first transaction goes at once
        let acknowledged = Locked(0)
        for version in UInt64(1)...200 {
            database.append(StorageFiles.batch(storeID: id, versions: version...version)) { error in
                if error == nil { acknowledged.withLock { $0 += 1 } }
            }
        }
        database.close()
        #expect(acknowledged.withLock { $0 } == 200)
        let reopened = try StoreDatabase.openReadOnly(path: files.path)
        defer { reopened.close() }
        #expect(try reopened.log(storeID: id, since: 0, limit: 1_000).map(\.version) == Array(1...200))
    }

    // MARK: Group commit

    /// Eight threads, each appending to its own store and waiting for each `done` (as a client waits for its
    /// answer): requests queued while a commit runs share the next one.
    @Test func aTakenNameFailsItsCreateAloneNotTheOthersInItsTransaction() throws {
        let files = try StorageFiles()
        defer { files.remove() }
        let database = try StoreDatabase.open(files.configuration(.interval), logger: Self.logger)  // one transaction for all three
        defer { database.close() }
        let other = try files.createStore(database, name: "other")
        let created = Completion<Result<Int64, StorageError>>()
        let again = Completion<Result<Int64, StorageError>>()
        let appended = Completion<StorageError?>()
        database.createStore(name: "twice", reducer: "Counter", initialState: nil, epoch: "e1", createdBy: .put,
                             state0: StorageFiles.state(0)) { created($0) }
        database.createStore(name: "twice", reducer: "Counter", initialState: nil, epoch: "e2", createdBy: .put,
                             state0: StorageFiles.state(0)) { again($0) }
        database.append(StorageFiles.batch(storeID: other, versions: 1...2, origin: .external, padding: 20,
                                           forceSnapshot: false, keys: [])) { appended($0) }
        #expect(try created.wait()?.get() != nil)
        let refusal = try #require(again.wait())
        guard case .failure(let error) = refusal else {
            Issue.record("the second create of one name succeeded")
            return
        }
        #expect(error.isNameTaken)
        let outcome = try #require(appended.wait(), "the append of the other store was answered")
        #expect(outcome == nil)
        #expect(try database.log(storeID: other, since: 0, limit: 10).map(\.version) == [1, 2])
    }

    @Test func appendsQueuedDuringACommitShareTheNextTransaction() throws {
        let files = try StorageFiles()
        defer { files.remove() }
        let database = try StoreDatabase.open(files.configuration(.commit), logger: Self.logger)
        defer { database.close() }
        let threads = 8, perThread = 100
        let ids = try (0..<threads).map { try files.createStore(database, name: "s\($0)") }
        let (failures, transactions) = files.appendFromThreads(database, storeIDs: ids, perThread: perThread)
        #expect(failures == 0)
        #expect(transactions < threads * perThread / 2, "\(transactions) transactions for \(threads * perThread)")
        for id in ids {
            #expect(try database.log(storeID: id, since: 0, limit: 1_000).map(\.version) == Array(1...100))
        }
    }

    /// Throughput on this machine, printed (set STATEHOUSE_STORAGE_MEASURE=1): 1-row batches from 64 threads in
    /// commit mode, and the cost per row of 256-row batches.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STATEHOUSE_STORAGE_MEASURE"] != nil))
    func measureAppendRates() throws {
        let files = try StorageFiles()
        defer { files.remove() }
        let database = try StoreDatabase.open(files.configuration(.commit), logger: Self.logger)
        defer { database.close() }
        let threads = 64, perThread = 300
        let ids = try (0..<threads).map { try files.createStore(database, name: "s\($0)") }
        let start = ContinuousClock.now
        let (_, transactions) = files.appendFromThreads(database, storeIDs: ids, perThread: perThread)
        let seconds = (ContinuousClock.now - start).seconds
        print("storage: \(Int(Double(threads * perThread) / seconds)) appends/s of 1-row batches from \(threads) "
              + "threads (commit mode, \(transactions) transactions, "
              + "\(String(format: "%.1f", Double(threads * perThread) / Double(transactions))) batches each)")

        let batches = 200, rows = 256
        let big = try files.createStore(database, name: "big")
        let bigStart = ContinuousClock.now
        for index in 0..<batches {
            let first = UInt64(index * rows + 1)
            _ = files.append(database, storeID: big, versions: first...first + UInt64(rows - 1))
        }
        let perRow = (ContinuousClock.now - bigStart).seconds * 1e6 / Double(batches * rows)
        print("storage: \(String(format: "%.2f", perRow)) µs per row in \(rows)-row batches (commit mode, each "
              + "batch waited for)")
    }

    // MARK: Compaction

    @Test func snapshotsAndCompactionKeepTheDatabaseBoundedUnder100kRows() throws {
        let files = try StorageFiles()
        defer { files.remove() }
        var configuration = files.configuration(.off)
        configuration.snapshotEveryActions = 500
        configuration.retainActions = 1_000
        let database = try StoreDatabase.open(configuration, logger: Self.logger)
        defer { database.close() }
        let id = try files.createStore(database, name: "counter")
        let perBatch: UInt64 = 100
        var sizes: [Int] = [], walSizes: [Int] = []
        for round in 0..<10 {
            let last = Completion<StorageError?>()
            for index in 0..<100 {
                let first = UInt64(round * 100 + index) * perBatch + 1
                database.append(StorageFiles.batch(storeID: id, versions: first...first + perBatch - 1, padding: 100)) {
                    if index == 99 { last($0) }
                }
            }
            #expect(last.wait().map { $0 == nil } == true)
            let rows = try database.log(storeID: id, since: 0, limit: 1_000_000)
            let newest = UInt64(round + 1) * 10_000
            #expect(rows.last?.version == newest)
            // Rows kept: the retention plus at most one snapshot period behind it.
            #expect(rows.count <= configuration.retainActions + configuration.snapshotEveryActions + Int(perBatch))
            #expect(rows.count >= configuration.retainActions)
            #expect(try database.snapshots(storeID: id).count <= 4)
            sizes.append(files.bytes(files.path))
            walSizes.append(files.bytes(files.path + "-wal"))
        }
        // 100k rows of ~130 bytes would be ~13 MB: the file stays at a fraction (compaction frees pages that are
        // reused), and the WAL is reused after each automatic checkpoint (1,000 pages, ~4 MB).
        #expect(sizes.allSatisfy { $0 < 1 << 20 }, "\(sizes)")
        #expect(walSizes.allSatisfy { $0 < 5 << 20 }, "\(walSizes)")
        #expect(try database.recovery(storeID: id, historySize: 0).rows.count <= 600)
    }

    // MARK: Failures

    @Test func pastMaxBytesCommitModeAppendsFailFullAndAreNotWritten() throws {
        let files = try StorageFiles()
        defer { files.remove() }
        var configuration = files.configuration(.commit)
        configuration.maxBytes = 96 << 10
        let database = try StoreDatabase.open(configuration, logger: Self.logger)
        defer { database.close() }
        let id = try files.createStore(database, name: "counter")
        var version: UInt64 = 0
        var failure: StorageError?
        while failure == nil && version < 1_000 {
            failure = files.append(database, storeID: id, versions: version + 1...version + 1, padding: 4_000)
            if failure == nil { version += 1 }
        }
        let error = try #require(failure)
        #expect(error.isFull)
        #expect(error.sqlite?.isFull == true)
        #expect(error.description.hasPrefix("storage \(files.path): "), "\(error)")
        #expect(try database.log(storeID: id, since: 0, limit: 10_000).last?.version == version)
        // Still full: the next try fails too, and nothing was kept queued.
        #expect(files.append(database, storeID: id, versions: version + 1...version + 1, padding: 4_000)?.isFull == true)
        // Small writes that fit still go through.
        #expect(files.append(database, storeID: id, versions: version + 1...version + 1, padding: 0) == nil)
    }

    @Test func intervalModeReportsTheFailureAndRetriesUntilItWorks() throws {
        let files = try StorageFiles()
        defer { files.remove() }
        var configuration = files.configuration(.interval)
        configuration.intervalMs = 10
        configuration.maxBytes = 96 << 10
        let database = try StoreDatabase.open(configuration, logger: Self.logger)
        defer { database.close() }
        let health = HealthLog()
        database.onHealthChange { health.record($0) }
        let id = try files.createStore(database, name: "counter")
        let acknowledged = Locked<[UInt64]>([])
        let allDone = Completion<Void>()
        let count: UInt64 = 60
        for version in 1...count {
            database.append(StorageFiles.batch(storeID: id, versions: version...version, padding: 4_000)) { error in
                let done = acknowledged.withLock { acknowledged in
                    if error == nil { acknowledged.append(version) }
                    return acknowledged.count == Int(count)
                }
                if done { allDone(()) }
            }
        }
        let failing = try #require(health.wait(count: 1))
        #expect(failing[0]?.isFull == true)
        database.changeMaxBytes(nil)
        #expect(allDone.wait() != nil)
        #expect(health.wait(count: 2)?.map { $0 == nil } == [false, true])
        #expect(acknowledged.withLock { $0 } == Array(1...count))
        #expect(try database.log(storeID: id, since: 0, limit: 1_000).map(\.version) == Array(1...count))
    }

    @Test func aSecondServerOnTheSameDatabaseFailsClearly() throws {
        let files = try StorageFiles()
        defer { files.remove() }
        let first = try StoreDatabase.open(files.configuration(.commit), logger: Self.logger)
        let error = try #require(throws: StorageError.self) { try StoreDatabase.open(files.configuration(.commit), logger: Self.logger) }
        #expect(error.operation == "lock \(files.path).lock")
        #expect(error.description.contains("another statehouse server has this database open"), "\(error)")
        // A reader beside the running server is fine.
        let reader = try StoreDatabase.openReadOnly(path: files.path)
        #expect(try reader.stores().isEmpty)
        let refused = Completion<StorageError?>()
        reader.append(StorageFiles.batch(storeID: 1, versions: 1...1)) { refused($0) }
        #expect(refused.wait()??.description.contains("read-only") == true)
        reader.close()
        first.close()
        let second = try StoreDatabase.open(files.configuration(.commit), logger: Self.logger)
        second.close()
    }

    @Test func aNewerFormatOrAMissingFileIsRefused() throws {
        let files = try StorageFiles()
        defer { files.remove() }
        #expect(throws: StorageError.self) { try StoreDatabase.openReadOnly(path: files.path) }
        try StoreDatabase.open(files.configuration(.commit), logger: Self.logger).close()
        // PRAGMA user_version is the big-endian 32-bit integer at offset 60 of the database header.
        let handle = try #require(FileHandle(forUpdatingAtPath: files.path))
        try handle.seek(toOffset: 60)
        try handle.write(contentsOf: Data([0, 0, 0, 2]))
        try handle.close()
        let error = try #require(throws: StorageError.self) { try StoreDatabase.open(files.configuration(.commit), logger: Self.logger) }
        #expect(error.description.contains("format version is 2"), "\(error)")
        #expect(throws: StorageError.self) { try StoreDatabase.openReadOnly(path: files.path) }
    }

    // MARK: Backup and keys

    @Test func backupWhileAppendsRunHoldsEveryCommittedRow() throws {
        let files = try StorageFiles()
        defer { files.remove() }
        let database = try StoreDatabase.open(files.configuration(.commit), logger: Self.logger)
        defer { database.close() }
        let id = try files.createStore(database, name: "counter")
        let committed = Locked<UInt64>(0)
        let stop = Locked(false)
        let started = Completion<Void>()
        let appender = Completion<Void>()
        Thread {
            var version: UInt64 = 1
            while !stop.withLock({ $0 }) && version <= 20_000 {
                guard files.append(database, storeID: id, versions: version...version + 9) == nil else { break }
                committed.withLock { $0 = version + 9 }
                if version == 491 { started(()) }
                version += 10
            }
            appender(())
        }.start()
        #expect(started.wait() != nil)
        let before = committed.withLock { $0 }
        let copy = files.directory + "/backup.db"
        try database.backup(to: copy)
        let afterBackup = committed.withLock { $0 }
        stop.withLock { $0 = true }
        #expect(appender.wait() != nil)
        #expect(afterBackup >= before)

        let restored = try StoreDatabase.openReadOnly(path: copy)
        defer { restored.close() }
        let rows = try restored.log(storeID: id, since: 0, limit: 1_000_000).map(\.version)
        #expect(rows.count >= Int(before))
        #expect(rows == Array(1...UInt64(rows.count)), "a contiguous prefix")
        #expect(try restored.stores().map(\.name) == ["counter"])
    }

    @Test func keysBeyondTheCapAreDeletedOldestFirst() throws {
        let files = try StorageFiles()
        defer { files.remove() }
        let database = try StoreDatabase.open(files.configuration(.commit), logger: Self.logger)
        defer { database.close() }
        let id = try files.createStore(database, name: "counter")
        let other = try files.createStore(database, name: "other")
        let cap = StoreWriter.keysPerStore
        let nowMs = StorageClock.nowMs
        let keys = (0..<cap + 50).map { index in
            StoredKey(key: "k\(index)", fingerprint: 1, version: 1, state: StorageFiles.state(1),
                      expiresMs: nowMs + 60_000 + Int64(index))
        }
        #expect(files.append(database, storeID: id, versions: 1...1, keys: keys) == nil)
        #expect(files.append(database, storeID: other, versions: 1...1, keys: Array(keys.prefix(10))) == nil)
        // The sweep runs in a transaction at most once a second: write until one has run (or 5 s pass).
        let reader = try Connection(path: files.path, readOnly: true)
        defer { reader.close() }
        func stored(_ storeID: Int64) throws -> Int64 {
            let count = try reader.prepare("SELECT count(*) FROM idempotency WHERE store_id = ?1")
            defer { count.reset() }
            try count.bind(1, storeID)
            _ = try count.step()
            return count.int64(0)
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while try stored(id) > cap, ContinuousClock.now < deadline {
            #expect(files.append(database, storeID: id, versions: nil) == nil)
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(try stored(id) == Int64(cap))
        #expect(try stored(other) == 10)
        #expect(try database.keys(storeID: id, nowMs: nowMs).first?.key == "k50")  // the 50 oldest went
    }

    @Test func expiredKeysAreGoneAndLiveKeysSurviveAReopen() throws {
        let files = try StorageFiles()
        defer { files.remove() }
        let database = try StoreDatabase.open(files.configuration(.commit), logger: Self.logger)
        let id = try files.createStore(database, name: "counter")
        let nowMs = StorageClock.nowMs
        let live = StoredKey(key: "live", fingerprint: .max, version: 1, state: StorageFiles.state(1),
                             expiresMs: nowMs + 60_000)
        let expired = StoredKey(key: "expired", fingerprint: 7, version: 1, state: StorageFiles.state(1),
                                expiresMs: nowMs - 1)
        #expect(files.append(database, storeID: id, versions: 1...1, keys: [live, expired]) == nil)
        #expect(try database.keys(storeID: id, nowMs: nowMs) == [live])
        #expect(try database.keys(storeID: id, nowMs: nowMs + 60_000).isEmpty)
        // A keyed no-op: no rows, only the key's outcome.
        let again = StoredKey(key: "again", fingerprint: 1, version: 1, state: StorageFiles.state(1),
                              expiresMs: nowMs + 60_000)
        #expect(files.append(database, storeID: id, versions: nil, keys: [again]) == nil)
        database.close()
        let reopened = try StoreDatabase.open(files.configuration(.commit), logger: Self.logger)
        defer { reopened.close() }
        #expect(try reopened.keys(storeID: id, nowMs: nowMs) == [again, live])
        #expect(try reopened.log(storeID: id, since: 0, limit: 10).map(\.version) == [1])
    }
}

// MARK: - Helpers

/// A temporary directory holding `data/store.db` (the `data` directory is left to `open` to create).
private struct StorageFiles: Sendable {
    let directory: String
    var path: String { directory + "/data/store.db" }

    init() throws {
        directory = NSTemporaryDirectory() + "statehouse-storage-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    func configuration(_ sync: SyncMode) -> StorageConfiguration {
        var configuration = StorageConfiguration(path: path)
        configuration.sync = sync
        return configuration
    }

    /// The size of `file` in bytes (0 when missing).
    func bytes(_ file: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
    }

    static func action(_ version: UInt64, padding: Int = 20) -> [UInt8] {
        Array(#"{"type":"increment","n":\#(version),"pad":"\#(String(repeating: "x", count: padding))"}"#.utf8)
    }

    static func state(_ version: UInt64) -> [UInt8] { Array(#"{"count":\#(version)}"#.utf8) }

    /// A batch journaling `versions` (nil: none) with row time = version, ending at the last (or at 1).
    static func batch(storeID: Int64, versions: ClosedRange<UInt64>?, origin: JournalOrigin = .external,
                      padding: Int = 20, forceSnapshot: Bool = false, keys: [StoredKey] = []) -> JournalBatch {
        JournalBatch(storeID: storeID) {
            let rows = versions.map { versions in
                versions.map { JournalRow(version: $0, origin: origin, action: action($0, padding: padding),
                                          timeMs: Int64($0)) }
            } ?? []
            let newest = versions?.upperBound ?? 1
            return EncodedBatch(rows: rows, keys: keys, newestVersion: newest, forceSnapshot: forceSnapshot,
                                snapshotState: { state(newest) })
        }
    }

    /// Appends and waits for `done`: its error, nil when committed.
    func append(_ database: StoreDatabase, storeID: Int64, versions: ClosedRange<UInt64>?,
                origin: JournalOrigin = .external, padding: Int = 20, forceSnapshot: Bool = false,
                keys: [StoredKey] = []) -> StorageError? {
        let done = Completion<StorageError?>()
        database.append(Self.batch(storeID: storeID, versions: versions, origin: origin, padding: padding,
                                   forceSnapshot: forceSnapshot, keys: keys)) { done($0) }
        guard let outcome = done.wait() else {
            return StorageError(path: path, operation: "test", message: "append's done did not come in 10 s")
        }
        return outcome
    }

    /// One thread per store appends 1-row batches 1...`perThread`, each waiting for its `done`; returns the failed
    /// appends and the transactions they took.
    func appendFromThreads(_ database: StoreDatabase, storeIDs: [Int64], perThread: Int)
        -> (failures: Int, transactions: Int)
    {
        let before = database.committedTransactions
        let failures = runThreads(storeIDs.count) { thread in
            (1...perThread).filter { version in
                append(database, storeID: storeIDs[thread], versions: UInt64(version)...UInt64(version)) != nil
            }.count
        }
        return (failures, database.committedTransactions - before)
    }

    func createStore(_ database: StoreDatabase, name: String) throws -> Int64 {
        let done = Completion<Result<Int64, StorageError>>()
        database.createStore(name: name, reducer: "Counter", initialState: nil, epoch: "epoch-\(name)",
                             createdBy: .put, state0: Self.state(0)) { done($0) }
        let result = try #require(done.wait())
        return try result.get()
    }
}

/// One value handed over from a callback, waited for with a deadline.
private final class Completion<Value: Sendable>: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let value = Locked<Value?>(nil)

    func callAsFunction(_ outcome: Value) {
        value.withLock { $0 = outcome }
        semaphore.signal()
    }

    /// The value, or nil when none came within `seconds`.
    func wait(seconds: Double = 10) -> Value? {
        guard semaphore.wait(timeout: .now() + seconds) == .success else { return nil }
        return value.withLock { $0 }
    }
}

/// The health handler's calls, in order.
private final class HealthLog: Sendable {
    private let calls = Locked<[StorageError?]>([])
    private let signal = DispatchSemaphore(value: 0)

    func record(_ error: StorageError?) {
        calls.withLock { $0.append(error) }
        signal.signal()
    }

    /// The calls once there are at least `count`, or nil after 10 s.
    func wait(count: Int) -> [StorageError?]? {
        let deadline = DispatchTime.now() + 10
        while true {
            let seen = calls.withLock { $0 }
            if seen.count >= count { return seen }
            guard signal.wait(timeout: deadline) == .success else { return nil }
        }
    }
}

/// Runs `body(thread)` on `count` threads at once and returns the sum of their results.
private func runThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Int) -> Int {
    let total = Locked(0)
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            let result = body(index)
            total.withLock { $0 += result }
            group.leave()
        }.start()
    }
    group.wait()
    return total.withLock { $0 }
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
