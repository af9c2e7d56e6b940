import Foundation
import SQLite

/// The offline side of durable storage, for the `statehouse replay` and `statehouse backup` commands. Both open the
/// database read-only, so they may run while a server uses it (SQLite WAL mode).
public enum StorageTools {
    /// What `statehouse replay` found.
    public struct ReplayReport: Sendable {
        /// The store's name and the version and state JSON the replay ended at.
        public let store: String
        public let version: UInt64
        public let state: [UInt8]
        /// The snapshot replay started from, and how many actions it reduced.
        public let fromVersion: UInt64
        public let actions: Int
        /// With `verify`: how many later snapshots were compared, and the first version whose replayed state differs
        /// from its snapshot (nil: every one matched).
        public let verified: Int
        public let mismatch: UInt64?
    }

    /// A problem that stops a tool; `description` is one line.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Re-reduces store `name`'s journal from its oldest kept snapshot up to `target` (nil: the newest version), and
    /// with `verify` compares the state at every later snapshot with it: the check that the reducer is deterministic
    /// (and still reads its old actions) before upgrading it.
    /// - Throws: ``Failure`` when the configuration has no storage, the database cannot be read, the store is not in
    ///   it, its reducer is not in `catalog`, or a snapshot or action does not decode (naming the version).
    public static func replay(
        configuration: ServerConfiguration, catalog: ReducerCatalog, store name: String, to target: UInt64?, verify: Bool
    ) throws(Failure) -> ReplayReport {
        let database = try openDatabase(configuration)
        defer { database.close() }
        let found: StoredStore?
        do {
            found = try database.stores().first { $0.name == name }
        } catch {
            throw Failure(description: "\(error)")
        }
        guard let stored = found else {
            throw Failure(description: "\(database.configuration.path) holds no store named \(name)")
        }
        guard let replayer = catalog.replayers[stored.reducer] else {
            throw Failure(description: "store \(name) uses reducer \(stored.reducer), which this binary does not have")
        }
        do {
            return try replayer(database, stored, target, verify)
        } catch {
            throw Failure(description: "\(database.configuration.path): \(error)")
        }
    }

    /// Copies the database to `destination` (a new file) through SQLite's online backup API (consistent while a
    /// server writes). Every store of the copy gets a new epoch: the live server may go on past the copy's versions,
    /// so a server restored from it must not answer old positions as if nothing had happened since.
    /// - Throws: ``Failure`` when the configuration has no storage, `destination` exists, or the copy fails.
    public static func backup(configuration: ServerConfiguration, to destination: String) throws(Failure) {
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw Failure(description: "\(destination) exists; back up to a new file (remove it first to replace it)")
        }
        let database = try openDatabase(configuration)
        defer { database.close() }
        do {
            try database.backup(to: destination)
            let copy = try Connection(path: destination, readOnly: false)
            defer { copy.close() }
            try StoreSchema.renewEpochs(copy)
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            throw Failure(description: "\(error)")
        }
    }

    private static func openDatabase(_ configuration: ServerConfiguration) throws(Failure) -> StoreDatabase {
        guard let storage = configuration.storage else {
            throw Failure(description: "the configuration has no storage section: its stores are not written anywhere")
        }
        do {
            return try StoreDatabase.openReadOnly(path: storage.path)
        } catch {
            throw Failure(description: "\(error)")
        }
    }
}

extension ReducerCatalog {
    typealias Replayer = @Sendable (
        _ database: StoreDatabase, _ store: StoredStore, _ target: UInt64?, _ verify: Bool
    ) throws -> StorageTools.ReplayReport
}
