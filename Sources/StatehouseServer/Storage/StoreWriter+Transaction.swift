import Foundation
import SQLite

extension StoreWriter {
    /// Runs `batch` as one transaction; nil when it committed. On failure everything is rolled back, the snapshot
    /// counters included, and the error is returned.
    func transact(_ batch: inout [PendingWrite]) -> StorageError? {
        let (savedCounters, savedSweep, savedKeyed) = (counters, lastKeySweepMs, keyedSinceSweep)
        do throws(StorageError) {
            try sql("BEGIN") { () throws(SQLiteError) in try connection.execute("BEGIN IMMEDIATE") }
            let nowMs = StorageClock.nowMs
            for index in batch.indices { try apply(&batch[index], nowMs: nowMs) }
            if nowMs - lastKeySweepMs >= 1_000 {
                try sql("delete expired keys") { () throws(SQLiteError) in
                    let delete = try connection.prepare("DELETE FROM idempotency WHERE expires_ms <= ?1")
                    try delete.bind(1, nowMs)
                    try delete.run()
                    // At most keysPerStore per store, the newest kept (as the server's memory keeps them): the table
                    // stays bounded however many keys arrive within their time to live. Only stores that were given
                    // keys since the last sweep can be over, so only their keys are looked at.
                    let over = try connection.prepare("""
                        DELETE FROM idempotency WHERE store_id = ?1 AND rowid IN (
                            SELECT rowid FROM idempotency WHERE store_id = ?1 ORDER BY expires_ms DESC LIMIT -1 OFFSET ?2)
                        """)
                    for storeID in keyedSinceSweep {
                        try over.bind(1, storeID)
                        try over.bind(2, Int64(StoreWriter.keysPerStore))
                        try over.run()
                    }
                }
                lastKeySweepMs = nowMs
                keyedSinceSweep = []
            }
            try sql("COMMIT") { () throws(SQLiteError) in try connection.execute("COMMIT") }
            return nil
        } catch {
            if connection.isInTransaction { _ = try? connection.execute("ROLLBACK") }
            (counters, lastKeySweepMs, keyedSinceSweep) = (savedCounters, savedSweep, savedKeyed)
            return error
        }
    }

    /// Runs SQLite calls as `operation`, wrapping their error.
    func sql<T>(_ operation: String, _ body: () throws(SQLiteError) -> T) throws(StorageError) -> T {
        do {
            return try body()
        } catch {
            throw StorageError(path: path, operation: operation, sqlite: error)
        }
    }

    private func apply(_ pending: inout PendingWrite, nowMs: Int64) throws(StorageError) {
        switch pending.request {
        case .createStore(let store, _):
            // A name already stored fails this request alone (a PUT racing another PUT or a DELETE of the name), not
            // the transaction: the other stores' batches in it are not undone for it.
            if let taken = try storedName(store.name) {
                pending.refusal = .nameTaken(path: path, name: store.name, id: taken)
                return
            }
            pending.createdID = try insertStore(store, nowMs: nowMs)
            counters[pending.createdID] = SnapshotCounter()  // an id SQLite reuses starts afresh
        case .deleteStore(let id, _):
            try sql("delete store \(id)") { () throws(SQLiteError) in
                for table in ["journal", "snapshots", "idempotency"] {
                    let delete = try connection.prepare("DELETE FROM \(table) WHERE store_id = ?1")
                    try delete.bind(1, id)
                    try delete.run()
                }
                let delete = try connection.prepare("DELETE FROM stores WHERE id = ?1")
                try delete.bind(1, id)
                try delete.run()
            }
            counters[id] = nil
            counters[id] = nil
        case .append(let batch, _):
            let encoded = pending.encoded ?? batch.encode()
            pending.encoded = encoded
            pending.refusal = try append(encoded, storeID: batch.storeID, nowMs: nowMs)
        }
    }

    /// The id of the stored store named `name`, or nil.
    private func storedName(_ name: String) throws(StorageError) -> Int64? {
        try sql("look up store \(name)") { () throws(SQLiteError) -> Int64? in
            let select = try connection.prepare("SELECT id FROM stores WHERE name = ?1")
            defer { select.reset() }
            try select.bind(1, name)
            return try select.step() ? select.int64(0) : nil
        }
    }

    private func insertStore(_ store: NewStore, nowMs: Int64) throws(StorageError) -> Int64 {
        let id = try sql("create store \(store.name)") { () throws(SQLiteError) -> Int64 in
            let insert = try connection.prepare("""
                INSERT INTO stores(name, reducer, initial_state, epoch, created_by, created_ms)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                """)
            try insert.bind(1, store.name)
            try insert.bind(2, store.reducer)
            try insert.bind(3, store.initialState, as: .text)
            try insert.bind(4, store.epoch)
            try insert.bind(5, Int64(store.createdBy.rawValue))
            try insert.bind(6, nowMs)
            try insert.run()
            return connection.lastInsertRowID
        }
        try insertSnapshot(storeID: id, version: 0, state: store.state0, nowMs: nowMs)
        counters[id] = SnapshotCounter()
        return id
    }

    /// Writes one batch; returns (without writing anything) the refusal of a batch that does not continue the store's
    /// journal: a store may write its next batch while one is being committed, and if that one failed, this one,
    /// reduced on top of it, fails too (alone: the other requests of the transaction are not failed for it), so the
    /// journal never has a gap.
    private func append(_ encoded: EncodedBatch, storeID: Int64, nowMs: Int64) throws(StorageError) -> StorageError? {
        var counter = counters[storeID] ?? SnapshotCounter()
        let from = encoded.rows.first?.version ?? encoded.newestVersion
        let follows = encoded.rows.isEmpty ? from == counter.newest : from == counter.newest + 1
        guard follows, encoded.newestVersion == counter.newest + UInt64(encoded.rows.count) else {
            return StorageError(
                path: path, operation: "write journal of store \(storeID)",
                message: "the batch (versions up to \(encoded.newestVersion)) does not continue the journal (at version \(counter.newest)): "
                    + "the batch before it failed")
        }
        counter.newest = encoded.newestVersion
        try sql("write journal of store \(storeID)") { () throws(SQLiteError) in
            let insert = try connection.prepare(
                "INSERT INTO journal(store_id, version, origin, action, time_ms) VALUES (?1, ?2, ?3, ?4, ?5)")
            try insert.bind(1, storeID)
            for row in encoded.rows {
                try insert.bind(2, Int64(bitPattern: row.version))
                try insert.bind(3, Int64(row.origin.rawValue))
                try insert.bind(4, row.action, as: .text)
                try insert.bind(5, row.timeMs)
                try insert.run()
                counter.rows += 1
                counter.bytes += row.action.count
            }
        }
        if !encoded.keys.isEmpty {
            keyedSinceSweep.insert(storeID)
            try sql("write idempotency keys of store \(storeID)") { () throws(SQLiteError) in
                let upsert = try connection.prepare("""
                    INSERT OR REPLACE INTO idempotency(store_id, key, fingerprint, version, state, expires_ms)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                    """)
                try upsert.bind(1, storeID)
                for key in encoded.keys {
                    try upsert.bind(2, key.key)
                    try upsert.bind(3, Int64(bitPattern: key.fingerprint))
                    try upsert.bind(4, Int64(bitPattern: key.version))
                    try upsert.bind(5, key.state, as: .text)
                    try upsert.bind(6, key.expiresMs)
                    try upsert.run()
                }
            }
        }
        let due = counter.rows >= configuration.snapshotEveryActions || counter.bytes >= configuration.snapshotEveryBytes
        if encoded.forceSnapshot || (due && counter.rows > 0) {
            try insertSnapshot(storeID: storeID, version: encoded.newestVersion, state: encoded.snapshotState(),
                               nowMs: nowMs)
            counter = SnapshotCounter(newest: encoded.newestVersion)
            try compact(storeID: storeID, newestVersion: encoded.newestVersion)
        }
        counters[storeID] = counter
        return nil
    }

    private func insertSnapshot(storeID: Int64, version: UInt64, state: [UInt8], nowMs: Int64) throws(StorageError) {
        try sql("write snapshot of store \(storeID) at version \(version)") { () throws(SQLiteError) in
            let insert = try connection.prepare(
                "INSERT OR REPLACE INTO snapshots(store_id, version, state, time_ms) VALUES (?1, ?2, ?3, ?4)")
            try insert.bind(1, storeID)
            try insert.bind(2, Int64(bitPattern: version))
            try insert.bind(3, state, as: .text)
            try insert.bind(4, nowMs)
            try insert.run()
        }
    }

    /// floor = newest - retainActions; B = the newest snapshot at or below floor (none: nothing to do); deletes
    /// the snapshots below B and the journal rows at or below B (B's state holds them).
    private func compact(storeID: Int64, newestVersion: UInt64) throws(StorageError) {
        let retain = UInt64(max(0, configuration.retainActions))
        guard newestVersion >= retain else { return }
        let floor = Int64(bitPattern: newestVersion - retain)
        try sql("compact store \(storeID)") { () throws(SQLiteError) in
            let newest = try connection.prepare(
                "SELECT max(version) FROM snapshots WHERE store_id = ?1 AND version <= ?2")
            try newest.bind(1, storeID)
            try newest.bind(2, floor)
            let base: Int64? = try newest.step() && !newest.isNull(0) ? newest.int64(0) : nil
            newest.reset()
            guard let base else { return }
            for (table, comparison) in [("snapshots", "<"), ("journal", "<=")] {
                let delete = try connection.prepare(
                    "DELETE FROM \(table) WHERE store_id = ?1 AND version \(comparison) ?2")
                try delete.bind(1, storeID)
                try delete.bind(2, base)
                try delete.run()
            }
        }
    }
}
