import Synchronization
import Foundation
import SQLite
import Locking

/// The durable stores' SQLite database: one writer thread with group commit (see ``StoreWriter``) and a pool of
/// read-only connections for startup, API and CLI reads.
///
/// Writes (``createStore(name:reducer:initialState:epoch:createdBy:state0:done:)``, ``deleteStore(id:done:)``,
/// ``append(_:done:)``) are queued to the writer thread; all queued requests go into one transaction (`BEGIN
/// IMMEDIATE` … `COMMIT`) and their `done` callbacks run on the writer thread, in queue order, after it committed.
/// Reads block the calling thread on a read connection of their own and, in WAL mode, see the last commit without
/// waiting for the writer.
///
/// Lifecycle: `open` (``open(_:)`` or ``openReadOnly(path:)``) → `closed` (``close()``: the queue drained, the WAL
/// checkpointed, the lock released). The table layout is in ``StoreSchema``.
///
/// ## Thread safety
/// Sendable: the writer has its own thread and lock, the read pool its lock, and the lifecycle is behind a lock.
final class StoreDatabase: Sendable {
    let configuration: StorageConfiguration
    let writer: StoreWriter?
    let readers: ReadConnectionPool
    private let lock: DatabaseLock?
    private let isOpen = Locked(true)

    private init(configuration: StorageConfiguration, writer: StoreWriter?, lock: DatabaseLock?) {
        self.configuration = configuration
        self.writer = writer
        self.lock = lock
        readers = ReadConnectionPool(path: configuration.path)
    }

    var path: String { configuration.path }

    /// Opens or creates the file (creating its directory), in WAL mode, `synchronous` FULL (`commit`, `interval`) or
    /// OFF (`off`), `busy_timeout` 5 s, the schema at `user_version` 1, `max_page_count` from `maxBytes`; takes an
    /// exclusive `flock` on `<path>.lock`; starts the writer thread. `logger` gets the warning of an unclean last stop
    /// (new epochs) and the writer's lines (see ``StoreWriter``).
    /// - Throws: `StorageError` naming the file and the step: the directory cannot be made, another server holds the
    ///   lock, SQLite cannot open the file or it is not a database, or its format version is newer than this code's.
    static func open(_ configuration: StorageConfiguration, logger: Logger) throws(StorageError) -> StoreDatabase {
        let path = configuration.path
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw StorageError(path: path, operation: "create directory \(directory)",
                                   message: "\(error.localizedDescription)")
            }
        }
        let lock = try DatabaseLock.acquire(databasePath: path)
        let connection: Connection
        do {
            connection = try Connection(path: path, readOnly: false)
        } catch {
            throw StorageError(path: path, operation: "open", sqlite: error)
        }
        do throws(StorageError) {
            try prepareWriteConnection(connection, configuration)
            try markRunning(connection, configuration, logger: logger)
            let counters = try loadCounters(connection, path: path)
            let writer = StoreWriter(path: path, configuration: configuration, connection: connection,
                                     counters: counters, logger: logger)
            writer.start()
            return StoreDatabase(configuration: configuration, writer: writer, lock: lock)
        } catch {
            connection.close()
            lock.release()
            throw error
        }
    }

    /// Opens an existing database read-only for the CLI (replay, backup, log): no writer thread, no lock, so it works
    /// beside a running server.
    /// - Throws: `StorageError` when the file is missing, not a database, has no schema, or a newer format version.
    static func openReadOnly(path: String) throws(StorageError) -> StoreDatabase {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StorageError(path: path, operation: "open", message: "no such file", errno: ENOENT)
        }
        let database = StoreDatabase(configuration: StorageConfiguration(path: path), writer: nil, lock: nil)
        let version = try database.readers.read("open") { (connection) throws(SQLiteError) -> Int in
            Int(try connection.pragma("user_version") ?? "0") ?? 0
        }
        guard version != 0 else {
            throw StorageError(path: path, operation: "open", message: "the file holds no statehouse tables")
        }
        try checkFormat(version, path: path)
        try database.readers.read("check the file (PRAGMA quick_check)") { (connection) throws(SQLiteError) in
            try quickCheck(connection)
        }
        return database
    }

    private static func prepareWriteConnection(_ connection: Connection, _ configuration: StorageConfiguration)
        throws(StorageError)
    {
        let path = configuration.path
        func run(_ operation: String, _ body: () throws(SQLiteError) -> Void) throws(StorageError) {
            do { try body() } catch { throw StorageError(path: path, operation: operation, sqlite: error) }
        }
        var version = 0
        try run("open") { () throws(SQLiteError) in
            try connection.pragma("busy_timeout = 5000")
            version = Int(try connection.pragma("user_version") ?? "0") ?? 0
        }
        try checkFormat(version, path: path)
        try run("check the file (PRAGMA quick_check)") { () throws(SQLiteError) in try quickCheck(connection) }
        try run("set journal_mode = WAL") { () throws(SQLiteError) in
            let mode = try connection.pragma("journal_mode = WAL")
            guard mode == "wal" else {
                throw SQLiteError(extendedCode: 1, message: "the file system gave journal_mode \(mode ?? "none")",
                                  operation: "PRAGMA journal_mode = WAL")
            }
            try connection.pragma("synchronous = \(configuration.sync == .off ? "OFF" : "FULL")")
        }
        if version == 0 {
            try run("create the schema") { () throws(SQLiteError) in
                // A file with tables of its own is some other program's database: never write ours into it.
                let tables = try connection.prepare("SELECT count(*) FROM sqlite_master")
                defer { tables.reset() }
                if try tables.step(), tables.int64(0) > 0 {
                    throw SQLiteError(
                        extendedCode: 1, message: "the file is an SQLite database of another program (it has tables and no statehouse format version); give storage.path a new file",
                        operation: "open")
                }
                try connection.execute("BEGIN IMMEDIATE")
                do throws(SQLiteError) {
                    try connection.execute(StoreSchema.statements)
                    try connection.pragma("user_version = \(StoreSchema.version)")
                    try connection.execute("COMMIT")
                } catch {
                    _ = try? connection.execute("ROLLBACK")
                    throw error
                }
            }
        }
        if let maxBytes = configuration.maxBytes {
            try run("set max_page_count") { () throws(SQLiteError) in
                try connection.pragma("max_page_count = \(try maxPageCount(maxBytes, connection))")
            }
        }
    }

    /// `maxBytes` in pages of the database's page size (at least 1).
    static func maxPageCount(_ maxBytes: Int, _ connection: Connection) throws(SQLiteError) -> Int {
        let pageSize = Int(try connection.pragma("page_size") ?? "4096") ?? 4096
        return max(1, maxBytes / pageSize)
    }

    /// A damaged file must stop the start (or the tool), never recover a silently shorter journal: SQLite's quick
    /// check of the b-trees (not of the indexes' contents), O(size of the file).
    private static func quickCheck(_ connection: Connection) throws(SQLiteError) {
        let verdict = try connection.pragma("quick_check(1)") ?? "ok"
        guard verdict == "ok" else {
            throw SQLiteError(extendedCode: 11, message: "the database is damaged: \(verdict)", operation: "PRAGMA quick_check")
        }
    }

    private static func checkFormat(_ version: Int, path: String) throws(StorageError) {
        guard version > StoreSchema.version else { return }
        throw StorageError(path: path, operation: "open", message: """
            the database format version is \(version) and this statehouse reads version \(StoreSchema.version): \
            run a newer statehouse on it
            """)
    }

    /// The file that says a server has this database open: made at open, removed by ``close()``. Found at open, it
    /// says the last server stopped without closing (killed, or the machine went down).
    static func runningMarker(_ path: String) -> String { path + ".running" }

    /// After an unclean stop in `interval` or `off` mode, acknowledged versions may be lost, so a version number (and
    /// an `ETag` or resume position made of it) could now name a different state: every store gets a new epoch, and
    /// clients holding an old position get a full state instead of a wrong patch. In `commit` mode nothing a client
    /// saw can be lost, so epochs survive any stop.
    private static func markRunning(
        _ connection: Connection, _ configuration: StorageConfiguration, logger: Logger
    ) throws(StorageError) {
        let marker = runningMarker(configuration.path)
        if FileManager.default.fileExists(atPath: marker), configuration.sync != .commit {
            do {
                try StoreSchema.renewEpochs(connection)
            } catch {
                throw StorageError(path: configuration.path, operation: "renew the epochs after an unclean stop", sqlite: error)
            }
            logger.warning(
                "storage \(configuration.path): the last server stopped without closing it (sync \(configuration.sync.rawValue)): "
                    + "the newest actions may be lost, so every store starts a new epoch (clients resume with a full state)")
        }
        guard FileManager.default.createFile(atPath: marker, contents: nil) else {
            throw StorageError(path: configuration.path, operation: "create \(marker)", message: "cannot create the file")
        }
    }

    /// Each store's rows and action bytes journaled after its newest snapshot.
    private static func loadCounters(_ connection: Connection, path: String)
        throws(StorageError) -> [Int64: SnapshotCounter]
    {
        do {
            let statement = try connection.prepare("""
                SELECT s.id, count(j.version), coalesce(sum(length(CAST(j.action AS BLOB))), 0),
                    max(coalesce((SELECT max(version) FROM journal WHERE store_id = s.id), 0),
                        coalesce((SELECT max(version) FROM snapshots WHERE store_id = s.id), 0))
                FROM stores s LEFT JOIN journal j ON j.store_id = s.id
                    AND j.version > (SELECT coalesce(max(version), -1) FROM snapshots WHERE store_id = s.id)
                GROUP BY s.id
                """)
            defer { statement.reset() }
            var counters: [Int64: SnapshotCounter] = [:]
            while try statement.step() {
                counters[statement.int64(0)] = SnapshotCounter(
                    rows: Int(statement.int64(1)), bytes: Int(statement.int64(2)),
                    newest: UInt64(bitPattern: statement.int64(3)))
            }
            return counters
        } catch {
            throw StorageError(path: path, operation: "read snapshot counters", sqlite: error)
        }
    }

    /// Drains the queue (commits what is queued), checkpoints the WAL (`TRUNCATE`), stops the writer, closes the
    /// read connections and releases the lock. Idempotent; writes queued afterwards fail with "the database is
    /// closed".
    func close() {
        let wasOpen = isOpen.withLock { open in
            defer { open = false }
            return open
        }
        guard wasOpen else { return }
        writer?.stop()
        readers.close()
        if writer != nil { try? FileManager.default.removeItem(atPath: Self.runningMarker(configuration.path)) }
        lock?.release()
    }

    /// Transactions committed by the writer so far (0 read-only): tests count group commits with it.
    var committedTransactions: Int { writer?.committedTransactions.load(ordering: .relaxed) ?? 0 }

    /// The writer's figures for `GET /metrics`; nil when read-only. Reads the sizes of the database file and its WAL
    /// (two `stat` calls).
    var writerFigures: WriterFigures? {
        guard let writer else { return nil }
        func size(_ path: String) -> UInt64 {
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value ?? 0
        }
        return WriterFigures(
            committedTransactions: UInt64(writer.committedTransactions.load(ordering: .relaxed)),
            failedTransactions: UInt64(writer.failedTransactions.load(ordering: .relaxed)),
            committedRequests: UInt64(writer.committedRequests.load(ordering: .relaxed)),
            transactionTimes: writer.transactionTimes.snapshot(),
            databaseBytes: size(configuration.path), walBytes: size(configuration.path + "-wal"))
    }
}

/// What the database's writer did since the server started (``StoreDatabase/writerFigures``).
struct WriterFigures: Sendable {
    var committedTransactions: UInt64
    var failedTransactions: UInt64
    /// Write requests (action batches, resets, stores created or deleted) in the committed transactions.
    var committedRequests: UInt64
    var transactionTimes: DurationHistogram.Snapshot
    /// Bytes of the database file and of its write-ahead log.
    var databaseBytes: UInt64
    var walBytes: UInt64
}
