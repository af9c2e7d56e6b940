// TEMPORARY stubs of the helper's Storage layer (replaced at merge).
import Foundation

struct SQLiteError: Error, Sendable {}

/// `storage.sync` in the configuration.
public enum SyncMode: String, Sendable { case commit, interval, off }

/// `"storage"` in the configuration (the lead parses JSON into it; you only use it).
public struct StorageConfiguration: Sendable, Equatable {
    public var path: String                     // the database file (absolute or as given; open it as given)
    public var sync: SyncMode = .commit
    public var intervalMs: Int = 100            // interval mode: commit period; also the retry period after a failure
    public var snapshotEveryActions: Int = 1_000
    public var snapshotEveryBytes: Int = 4 << 20 // bytes of action JSON journaled since the last snapshot
    public var retainActions: Int = 10_000      // journal rows kept behind the newest version (replay, ?at=, /log)
    public var maxBytes: Int? = nil             // database size cap (PRAGMA max_page_count); past it writes fail SQLITE_FULL
    public var keyTtlSeconds: Int = 600
    public init(path: String) { self.path = path }
}

enum JournalOrigin: Int, Sendable { case external = 0, effect = 1, reset = 2 }

/// One journaled change: the version after it; `action` is the action's JSON as Swift's synthesized Codable writes
/// it (the lead's JSONBytesEncoder output; for `.reset` rows it is the state JSON the reset restored).
struct JournalRow: Sendable, Equatable { let version: UInt64; let origin: JournalOrigin; let action: [UInt8]; let timeMs: Int64 }

struct StoredSnapshot: Sendable, Equatable { let version: UInt64; let state: [UInt8] }

/// An idempotency key's durable outcome: the version and state JSON the first request was answered with.
struct StoredKey: Sendable, Equatable { let key: String; let fingerprint: UInt64; let version: UInt64; let state: [UInt8]; let expiresMs: Int64 }

enum StoreCreator: Int, Sendable { case configuration = 0, put = 1 }

struct StoredStore: Sendable, Equatable {
    let id: Int64; let name: String; let reducer: String; let initialState: [UInt8]?; let epoch: String
    let createdBy: StoreCreator
}

/// What one batch of a store's actions (reduced together) writes; `encode` runs on the writer thread.
struct JournalBatch: Sendable {
    let storeID: Int64
    let encode: @Sendable () -> EncodedBatch
}
struct EncodedBatch {
    var rows: [JournalRow]          // ascending, contiguous versions (may be empty: a batch of only keyed no-ops)
    var keys: [StoredKey]           // INSERT OR REPLACE
    var newestVersion: UInt64       // the store's version at the batch's end
    var forceSnapshot: Bool         // true when the batch ends with a reset: snapshot at newestVersion now
    var snapshotState: @Sendable () -> [UInt8]  // the state JSON at newestVersion; call only when a snapshot is due
}

struct StorageError: Error, CustomStringConvertible, Sendable {
    let path: String; let operation: String; let sqlite: SQLiteError?
    var isFull: Bool; var description: String
}

final class StoreDatabase: Sendable {
    /// Opens or creates the file (mkdir -p its directory), WAL, synchronous FULL (commit, interval) or OFF (off),
    /// busy_timeout, schema (PRAGMA user_version = 1; a newer user_version is an error naming it), max_page_count from
    /// maxBytes; takes an exclusive advisory flock on "<path>.lock" (a second server on one database fails with a
    /// clear StorageError); starts the writer thread.
    static func open(_ configuration: StorageConfiguration) throws(StorageError) -> StoreDatabase { fatalError() }
    /// Opens read-only for the CLI (replay, backup, log): no writer thread, no lock.
    static func openReadOnly(path: String) throws(StorageError) -> StoreDatabase { fatalError() }

    var configuration: StorageConfiguration { fatalError() }

    // Startup reads (blocking; any thread)
    func stores() throws(StorageError) -> [StoredStore] { fatalError() }
    /// The base to recover from and the rows after it: base = the newest snapshot whose version is
    /// <= max(newestJournalVersion - historySize, 0), or the oldest snapshot when none is (so a restart can rebuild
    /// `historySize` versions of history); rows = every journal row with version > base.version, ascending.
    func recovery(storeID: Int64, historySize: Int) throws(StorageError) -> (base: StoredSnapshot, rows: [JournalRow]) { fatalError() }
    /// Unexpired keys (expiresMs > nowMs).
    func keys(storeID: Int64, nowMs: Int64) throws(StorageError) -> [StoredKey] { fatalError() }

    // Writes: queued to the writer thread; `done` runs on the writer thread.
    func createStore(name: String, reducer: String, initialState: [UInt8]?, epoch: String, createdBy: StoreCreator,
                     state0: [UInt8], done: @escaping @Sendable (Result<Int64, StorageError>) -> Void) { fatalError() }
        // store row + snapshot at version 0, one transaction; the Int64 is the new store id
    func deleteStore(id: Int64, done: @escaping @Sendable (StorageError?) -> Void) { fatalError() }
    func append(_ batch: JournalBatch, done: @escaping @Sendable (StorageError?) -> Void) { fatalError() }
    /// Called on the writer thread when writing starts failing (the error) or works again (nil): interval/off modes.
    func onHealthChange(_ handler: @escaping @Sendable (StorageError?) -> Void) { fatalError() }

    // Reads for the API and CLI (blocking; any thread; use their own read connection(s), never the writer's)
    func log(storeID: Int64, since: UInt64, limit: Int) throws(StorageError) -> [JournalRow] { fatalError() }
    /// The newest snapshot with version <= `version` and the rows (snapshot.version, version], or nil when no
    /// snapshot that old is kept.
    func stateInputs(storeID: Int64, at version: UInt64) throws(StorageError) -> (base: StoredSnapshot, rows: [JournalRow])? { fatalError() }
    func snapshots(storeID: Int64) throws(StorageError) -> [StoredSnapshot] { fatalError() }
    /// Oldest kept snapshot version ... newest version (journal or snapshot); nil for an unknown store.
    func retained(storeID: Int64) throws(StorageError) -> ClosedRange<UInt64>? { fatalError() }
    func backup(to destination: String) throws(StorageError) { fatalError() }
    /// Drains the queue (commits what is queued), checkpoints the WAL (TRUNCATE), stops the writer, closes.
    func close() { fatalError() }
}
