import Foundation
import Locking

/// Durable stores at startup: each found in the database is recovered, each new one is created in it first.
extension ReducerCatalog {
    /// The stores the database holds, by name.
    static func storedStores(_ durability: StoreDurability) throws(ConfigurationError) -> [String: StoredStore] {
        do {
            return Dictionary(try durability.database.stores().map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        } catch {
            throw ConfigurationError(path: durability.configuration.path, location: "", problem: "cannot read the stores (\(error))")
        }
    }

    /// What a durable store is built with: what `stored` holds of it (its snapshot, later actions and keys), or, for
    /// a store the database does not hold yet, a new row (committed before this returns).
    func persistence(
        for declaration: ServerConfiguration.StoreDeclaration, stored: StoredStore?, createdBy: StoreCreator,
        durability: StoreDurability, historySize: Int, path: String, at: String
    ) throws(ConfigurationError) -> (StorePersistence, StoreRecovery?) {
        let database = durability.database
        let file = durability.configuration.path
        if let stored {
            guard stored.reducer == declaration.reducer else {
                throw ConfigurationError(
                    path: path, location: "\(at).reducer",
                    problem: "store \"\(stored.name)\" in \(file) holds \(stored.reducer) data, not \(declaration.reducer); "
                        + "rename the store or drop its data (see docs/durability.md, changing a reducer)")
            }
            do {
                let recovery = try database.recovery(storeID: stored.id, historySize: historySize)
                let keys = try database.keys(storeID: stored.id, nowMs: StorageClock.nowMs)
                return (
                    StorePersistence(durability: durability, storeID: stored.id, epoch: stored.epoch),
                    StoreRecovery(base: recovery.base, rows: recovery.rows, keys: keys))
            } catch {
                throw ConfigurationError(path: file, location: "", problem: "cannot read store \(stored.name) (\(error))")
            }
        }
        // A store the database does not know yet: its row and its version-0 snapshot, written before it serves.
        let initial: [UInt8]
        do {
            initial = try initialJSON(declaration)
        } catch {
            // The same build fails again with its precise message in makeStores.
            return (StorePersistence(durability: durability, storeID: 0, epoch: ""), nil)
        }
        let epoch = StoreHistory.newEpoch()
        switch durability.createStoreAndWait(
            name: declaration.name, reducer: declaration.reducer, initialState: declaration.initialState, epoch: epoch,
            createdBy: createdBy, state0: initial)
        {
        case .success(let id):
            return (StorePersistence(durability: durability, storeID: id, epoch: epoch), nil)
        case .failure(let error):
            throw ConfigurationError(path: file, location: "", problem: "cannot create store \(declaration.name) (\(error))")
        }
    }
}

extension StoreDurability {
    /// ``StoreDatabase/createStore(name:reducer:initialState:epoch:createdBy:state0:done:)``, waiting for its commit
    /// (startup only: it blocks the calling thread).
    func createStoreAndWait(
        name: String, reducer: String, initialState: [UInt8]?, epoch: String, createdBy: StoreCreator, state0: [UInt8]
    ) -> Result<Int64, StorageError> {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Result<Int64, StorageError>?>(nil)
        database.createStore(
            name: name, reducer: reducer, initialState: initialState, epoch: epoch, createdBy: createdBy, state0: state0
        ) { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}
