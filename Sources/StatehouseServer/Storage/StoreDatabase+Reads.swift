import SQLite

/// Reads: each blocks the calling thread on a read connection of its own (never the writer's) and sees the last
/// commit. Versions are the store's versions; JSON comes back as the bytes stored.
extension StoreDatabase {
    /// Every stored store, by id.
    func stores() throws(StorageError) -> [StoredStore] {
        try readers.read("read stores") { (connection) throws(SQLiteError) -> [StoredStore] in
            let select = try connection.prepare(
                "SELECT id, name, reducer, initial_state, epoch, created_by FROM stores ORDER BY id")
            defer { select.reset() }
            var stores: [StoredStore] = []
            while try select.step() {
                stores.append(StoredStore(
                    id: select.int64(0), name: select.string(1), reducer: select.string(2),
                    initialState: select.isNull(3) ? nil : select.text(3), epoch: select.string(4),
                    createdBy: StoreCreator(rawValue: Int(select.int64(5))) ?? .configuration))
            }
            return stores
        }
    }

    /// The base to recover from and the rows after it: base = the newest snapshot whose version is
    /// <= max(newest - historySize, 0) (newest: the newest journal or snapshot version), or the oldest snapshot
    /// when none is, so a restart can rebuild `historySize` versions of history; rows = every journal row with
    /// version > base.version, ascending. One read transaction: base and rows are of the same commit.
    /// - Throws: `StorageError` when the store has no snapshot (an unknown id, or a damaged database), or, naming the
    ///   store and the version, when a version is not an integer from 0 to Int64.max or a snapshot is newer than the
    ///   journal's end (a damaged or hand-edited database).
    func recovery(storeID: Int64, historySize: Int) throws(StorageError) -> (base: StoredSnapshot, rows: [JournalRow]) {
        let operation = "recovery of store \(storeID)"
        let found = try readers.read(operation) {
            (connection) throws(SQLiteError) -> (base: StoredSnapshot, rows: [JournalRow])? in
            try connection.execute("BEGIN")
            defer { _ = try? connection.execute("COMMIT") }
            guard let range = try Self.retained(connection, storeID) else { return nil }
            let history = UInt64(max(0, historySize))
            let target = range.upperBound > history ? range.upperBound - history : 0
            var base = try Self.snapshot(connection, storeID, atOrBelow: target)
            if base == nil { base = try Self.snapshot(connection, storeID, atOrBelow: range.lowerBound) }
            guard let base else { return nil }
            let rows = try Self.rows(connection, storeID, after: base.version, through: nil, limit: nil)
            // A snapshot past the journal's end: the versions between were lost (never a silently older state).
            let reached = rows.last?.version ?? base.version
            guard reached >= range.upperBound else {
                throw SQLiteError(
                    extendedCode: 11,
                    message: "store \(storeID) has a snapshot at version \(range.upperBound) but its journal ends at "
                        + "version \(reached): the database is damaged (restore a backup)",
                    operation: operation)
            }
            return (base, rows)
        }
        guard let found else {
            throw StorageError(path: path, operation: operation, message: """
                the store has no snapshot: the database is damaged (restore a backup) or the store id is unknown
                """)
        }
        return found
    }

    /// The store's newest unexpired idempotency keys (`expiresMs > nowMs`, at most `StoreWriter.keysPerStore`), oldest
    /// first (as they were made): the cache they are restored into forgets the oldest first past its capacity.
    func keys(storeID: Int64, nowMs: Int64) throws(StorageError) -> [StoredKey] {
        try readers.read("read idempotency keys of store \(storeID)") { (connection) throws(SQLiteError) -> [StoredKey] in
            let select = try connection.prepare("""
                SELECT key, fingerprint, version, state, expires_ms FROM idempotency
                WHERE store_id = ?1 AND expires_ms > ?2 ORDER BY expires_ms DESC, version DESC, key DESC LIMIT ?3
                """)
            defer { select.reset() }
            try select.bind(1, storeID)
            try select.bind(2, nowMs)
            try select.bind(3, Int64(StoreWriter.keysPerStore))
            var keys: [StoredKey] = []
            while try select.step() {
                keys.append(StoredKey(
                    key: select.string(0), fingerprint: UInt64(bitPattern: select.int64(1)),
                    version: UInt64(bitPattern: select.int64(2)), state: select.text(3), expiresMs: select.int64(4)))
            }
            return keys.reversed()  // oldest first, as the cache forgets them
        }
    }

    /// At most `limit` journal rows with version > `since`, ascending.
    func log(storeID: Int64, since: UInt64, limit: Int) throws(StorageError) -> [JournalRow] {
        try readers.read("read the journal of store \(storeID)") { (connection) throws(SQLiteError) -> [JournalRow] in
            try Self.rows(connection, storeID, after: since, through: nil, limit: limit)
        }
    }

    /// The newest snapshot with version <= `version` and the rows (snapshot.version, version], or nil when no
    /// snapshot that old is kept.
    func stateInputs(storeID: Int64, at version: UInt64)
        throws(StorageError) -> (base: StoredSnapshot, rows: [JournalRow])?
    {
        try readers.read("read store \(storeID) at version \(version)") {
            (connection) throws(SQLiteError) -> (base: StoredSnapshot, rows: [JournalRow])? in
            try connection.execute("BEGIN")
            defer { _ = try? connection.execute("COMMIT") }
            guard let base = try Self.snapshot(connection, storeID, atOrBelow: version) else { return nil }
            return (base, try Self.rows(connection, storeID, after: base.version, through: version, limit: nil))
        }
    }

    /// Every kept snapshot of the store, ascending (`replay --verify` checks each).
    func snapshots(storeID: Int64) throws(StorageError) -> [StoredSnapshot] {
        try readers.read("read snapshots of store \(storeID)") { (connection) throws(SQLiteError) -> [StoredSnapshot] in
            let select = try connection.prepare(
                "SELECT version, state FROM snapshots WHERE store_id = ?1 ORDER BY version")
            defer { select.reset() }
            try select.bind(1, storeID)
            var snapshots: [StoredSnapshot] = []
            while try select.step() {
                snapshots.append(StoredSnapshot(version: UInt64(bitPattern: select.int64(0)), state: select.text(1)))
            }
            return snapshots
        }
    }

    /// The oldest kept snapshot's version ... the newest version (journal or snapshot); nil for an unknown store.
    func retained(storeID: Int64) throws(StorageError) -> ClosedRange<UInt64>? {
        try readers.read("read retained versions of store \(storeID)") {
            (connection) throws(SQLiteError) -> ClosedRange<UInt64>? in
            try connection.execute("BEGIN")
            defer { _ = try? connection.execute("COMMIT") }
            return try Self.retained(connection, storeID)
        }
    }

    /// Copies the database to `destination` with SQLite's online backup API, in one step (one read transaction, so
    /// the writer's commits neither block it nor restart it): the copy holds every transaction committed before it
    /// began. Works beside a running server (WAL mode).
    /// - Throws: `StorageError` with operation `"backup to <destination>"`.
    func backup(to destination: String) throws(StorageError) {
        try readers.read("backup to \(destination)") { (connection) throws(SQLiteError) in
            try connection.backup(to: destination, pagesPerStep: -1)
        }
    }

    /// - Throws: `SQLiteError` `SQLITE_CORRUPT` (11) when a version that bounds the range is not an integer in
    ///   0...Int64.max (a hand-edited or damaged file: SQLite sorts text after every number, and the writer never
    ///   stores a version past Int64.max), naming the store and the version.
    private static func retained(_ connection: Connection, _ storeID: Int64) throws(SQLiteError)
        -> ClosedRange<UInt64>?
    {
        let select = try connection.prepare("""
            SELECT min(version), max(version), typeof(min(version)), typeof(max(version)),
                (SELECT max(version) FROM journal WHERE store_id = ?1),
                (SELECT typeof(max(version)) FROM journal WHERE store_id = ?1)
            FROM snapshots WHERE store_id = ?1
            """)
        defer { select.reset() }
        try select.bind(1, storeID)
        guard try select.step(), !select.isNull(0) else { return nil }
        func version(_ column: Int32, type: Int32, _ table: String) throws(SQLiteError) -> UInt64 {
            let value = select.int64(column)
            guard select.string(type) == "integer", value >= 0 else {
                throw SQLiteError(
                    extendedCode: 11,
                    message: "store \(storeID) has a \(table) version that is not an integer from 0 to \(Int64.max) "
                        + "(\(select.string(column).debugDescription)): the database is damaged (restore a backup)",
                    operation: "read the versions of store \(storeID)")
            }
            return UInt64(value)
        }
        let oldest = try version(0, type: 2, "snapshot")
        let newestSnapshot = try version(1, type: 3, "snapshot")
        let newestRow = select.isNull(4) ? 0 : try version(4, type: 5, "journal")
        return oldest...max(newestSnapshot, newestRow)
    }

    private static func snapshot(_ connection: Connection, _ storeID: Int64, atOrBelow version: UInt64)
        throws(SQLiteError) -> StoredSnapshot?
    {
        let select = try connection.prepare("""
            SELECT version, state FROM snapshots WHERE store_id = ?1 AND version <= ?2 ORDER BY version DESC LIMIT 1
            """)
        defer { select.reset() }
        try select.bind(1, storeID)
        try select.bind(2, Int64(bitPattern: version))
        guard try select.step() else { return nil }
        return StoredSnapshot(version: UInt64(bitPattern: select.int64(0)), state: select.text(1))
    }

    /// Journal rows with `after < version <= through` (nil: no upper bound), ascending, at most `limit`.
    private static func rows(_ connection: Connection, _ storeID: Int64, after: UInt64, through: UInt64?, limit: Int?)
        throws(SQLiteError) -> [JournalRow]
    {
        let select = try connection.prepare("""
            SELECT version, origin, action, time_ms FROM journal
            WHERE store_id = ?1 AND version > ?2 AND version <= ?3 ORDER BY version LIMIT ?4
            """)
        defer { select.reset() }
        try select.bind(1, storeID)
        try select.bind(2, Int64(bitPattern: after))
        try select.bind(3, through.map { Int64(bitPattern: $0) } ?? Int64.max)
        try select.bind(4, Int64(limit ?? -1))
        var rows: [JournalRow] = []
        while try select.step() {
            rows.append(JournalRow(
                version: UInt64(bitPattern: select.int64(0)),
                origin: JournalOrigin(rawValue: Int(select.int64(1))) ?? .external,
                action: select.text(2), timeMs: select.int64(3)))
        }
        return rows
    }
}
