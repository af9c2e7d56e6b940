import Foundation

/// The server's durable storage: the database every durable store writes to, its sync mode, and whether writing works.
///
/// In `commit` mode a failed write undoes its batch (see ``StoreJournal``) and only its senders hear of it. In
/// `interval` and `off` mode answers have left already, so the database retries the failed writes and, until they
/// work, ``failure`` is set: durable stores refuse new actions with 503 `storage_unavailable` rather than let memory
/// run further ahead of the disk.
///
/// ## Thread safety
/// Sendable: immutable references and a locked health value.
final class StoreDurability: Sendable {
    let database: StoreDatabase
    let configuration: StorageConfiguration
    private let failing = LockedValue<StorageError?>(nil)
    /// Names the database holds data of that the server does not serve (`"durable": false`, or no longer configured):
    /// a `PUT` of one is refused, so the database's unique names are never in conflict.
    let unservedNames = LockedValue<Set<String>>([])

    init(database: StoreDatabase) {
        self.database = database
        configuration = database.configuration
        let failing = self.failing
        database.onHealthChange { error in
            failing.withLock { $0 = error }
            if let error {
                Log.shared.error("\(error); durable stores refuse actions until writing works again")
            } else {
                Log.shared.info("storage \(database.configuration.path): writing works again")
            }
        }
    }

    /// Whether answers wait for their batch's commit (the output gate).
    var gatesOutput: Bool { configuration.sync == .commit }

    /// The write failure that makes durable stores refuse actions now (`interval` and `off` modes), or nil.
    var failure: StorageError? { failing.withLock { $0 } }

    /// How long an idempotency key's outcome is kept.
    var keyTtl: Duration { .seconds(configuration.keyTtlSeconds) }

    /// Milliseconds since 1970 (the journal's clock).
    static var nowMs: Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}

/// What a durable store is built with: its row in the database and what recovery reads.
struct StorePersistence: Sendable {
    let durability: StoreDurability
    let storeID: Int64
    /// The store's epoch, kept for its life (resume tokens and entity tags stay valid across restarts).
    let epoch: String
    /// The snapshot and journal rows to recover from; nil for a store just created (version 0, initial state).
    let recovery: (base: StoredSnapshot, rows: [JournalRow])?
    /// Unexpired idempotency keys.
    let keys: [StoredKey]
}

extension APIError {
    /// The answer to an action whose batch could not be written (commit mode): 507 when the database is full
    /// (RFC 4918 §11.5), 503 otherwise.
    static func notWritten(_ error: any Error) -> APIError {
        if let error = error as? StorageError, error.isFull {
            return APIError(
                status: 507, code: "storage_full",
                message: "The store's database is full (storage.maxBytes or the disk), so the action was not applied; "
                    + "free space or raise the limit, then retry.")
        }
        return APIError(
            status: 503, code: "storage_failed",
            message: "The action could not be written to the store's database and was not applied (\(error)); retry later.",
            fields: [.init(name: "Retry-After", value: "1")])
    }

    /// The answer while writing fails in `interval` or `off` mode: the store takes no action until it works again.
    static func storageUnavailable(_ error: StorageError) -> APIError {
        APIError(
            status: 503, code: "storage_unavailable",
            message: "The server cannot write to its database (\(error)); actions are refused until it can. Retry later.",
            fields: [.init(name: "Retry-After", value: "1")])
    }
}
