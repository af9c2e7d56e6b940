import Foundation
import Synchronization
import Locking

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
    /// Gets a line when writing starts failing and when it works again.
    let logger: Logger
    private let failing = Locked<StorageError?>(nil)
    /// Whether `failing` holds an error: read without the lock on every action.
    private let isFailing = Atomic<Bool>(false)
    /// Names the database holds data of that the server does not serve (`"durable": false`, or no longer configured):
    /// a `PUT` of one is refused, so the database's unique names are never in conflict.
    let unservedNames = Locked<Set<String>>([])

    init(database: StoreDatabase, logger: Logger) {
        self.database = database
        self.logger = logger
        configuration = database.configuration
        database.onHealthChange { [weak self] error in self?.healthChanged(error) }
    }

    /// The writer's health changed (its thread): stores refuse actions from now on, or take them again.
    private func healthChanged(_ error: StorageError?) {
        failing.withLock { $0 = error }
        isFailing.store(error != nil, ordering: .releasing)
        if let error {
            logger.error("\(error); durable stores refuse actions until writing works again")
        } else {
            logger.info("storage \(configuration.path): writing works again")
        }
    }

    /// Whether answers wait for their batch's commit (the output gate).
    var gatesOutput: Bool { configuration.sync == .commit }

    /// The write failure that makes durable stores refuse actions now (`interval` and `off` modes), or nil.
    var failure: StorageError? {
        guard isFailing.load(ordering: .acquiring) else { return nil }
        return failing.withLock { $0 }
    }
}

/// Where a durable store is written: its database and its row there. Kept by the store for its life (one reference).
///
/// ## Thread safety
/// Immutable.
final class StorePersistence: Sendable {
    let durability: StoreDurability
    let storeID: Int64
    /// The store's epoch, kept for its life (resume tokens and entity tags stay valid across restarts).
    let epoch: String

    init(durability: StoreDurability, storeID: Int64, epoch: String) {
        self.durability = durability
        self.storeID = storeID
        self.epoch = epoch
    }
}

/// What a durable store is recovered from at build (then dropped): its snapshot, the journal rows after it, its keys.
struct StoreRecovery: Sendable {
    /// The snapshot and journal rows to replay.
    let base: StoredSnapshot
    let rows: [JournalRow]
    /// Unexpired idempotency keys.
    let keys: [StoredKey]
}
