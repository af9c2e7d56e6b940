import Foundation

/// The clock of everything the database stores (journal times, key expiries): milliseconds since the Unix epoch.
enum StorageClock {
    static var nowMs: Int64 { Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down)) }
}

/// Where a journaled change came from.
enum JournalOrigin: Int, Sendable {
    /// An action a client sent (HTTP `POST`, WebSocket `dispatch`).
    case external = 0
    /// An action an effect sent back into the store.
    case effect = 1
    /// A reset: the row's JSON is the state the reset restored.
    case reset = 2

    /// How `/log` and the cluster's journal name it: `external`, `effect`, `reset`.
    var name: String {
        switch self {
        case .external: "external"
        case .effect: "effect"
        case .reset: "reset"
        }
    }

    init?(name: String) {
        switch name {
        case "external": self = .external
        case "effect": self = .effect
        case "reset": self = .reset
        default: return nil
        }
    }
}

/// One journaled change: the version after it; `action` is the action's JSON as Swift's synthesized Codable writes
/// it (the `JSONBytesEncoder` output; for `.reset` rows it is the state JSON the reset restored). `timeMs` is
/// milliseconds since the Unix epoch.
struct JournalRow: Sendable, Equatable {
    let version: UInt64
    let origin: JournalOrigin
    let action: [UInt8]
    let timeMs: Int64
}

/// A store's state JSON at one version.
struct StoredSnapshot: Sendable, Equatable {
    let version: UInt64
    let state: [UInt8]
}

/// An idempotency key's durable outcome: the version and state JSON the first request was answered with;
/// `fingerprint` identifies the request body; `expiresMs` is milliseconds since the Unix epoch.
struct StoredKey: Sendable, Equatable {
    let key: String
    let fingerprint: UInt64
    let version: UInt64
    let state: [UInt8]
    let expiresMs: Int64
}

/// How a stored store came to be.
enum StoreCreator: Int, Sendable {
    /// Listed in the configuration file.
    case configuration = 0
    /// Made with `PUT /stores/{name}`.
    case put = 1
}

/// One row of `stores`: `initialState` is the JSON a `PUT` gave (nil: the reducer's own initial state).
struct StoredStore: Sendable, Equatable {
    let id: Int64
    let name: String
    let reducer: String
    let initialState: [UInt8]?
    let epoch: String
    let createdBy: StoreCreator
}

/// What one batch of a store's actions (reduced together) writes; `encode` runs on the writer thread, once (a retried
/// transaction reuses its result).
struct JournalBatch: Sendable {
    let storeID: Int64
    let encode: @Sendable () -> EncodedBatch
}

/// The rows, keys and snapshot source of one ``JournalBatch``.
struct EncodedBatch {
    /// Ascending, contiguous versions (may be empty: a batch of only keyed no-ops).
    var rows: [JournalRow]
    /// Written with `INSERT OR REPLACE`.
    var keys: [StoredKey]
    /// The store's version at the batch's end.
    var newestVersion: UInt64
    /// True when the batch ends with a reset: snapshot at `newestVersion` now.
    var forceSnapshot: Bool
    /// The state JSON at `newestVersion`; called only when a snapshot is due.
    var snapshotState: @Sendable () -> [UInt8]
}
