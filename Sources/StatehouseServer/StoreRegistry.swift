import Foundation
import Synchronization
import Locking

/// The stores a server hosts, by name: those of the configuration and those created with `PUT`.
///
/// ## Thread safety
/// Sendable: one lock around the table (every event loop looks stores up; `PUT` and `DELETE` change it), and an
/// atomic count of its changes, which lets a ``Memo`` answer a repeated lookup without the lock.
final class StoreRegistry: Sendable {
    private let stores: Locked<[String: HostedStore]>
    /// How many times the table has changed (bumped under the lock, after the change).
    private let generation = Atomic<UInt64>(0)

    init(_ stores: [String: HostedStore]) { self.stores = Locked(stores) }

    /// The store named `name`, or nil.
    subscript(name: String) -> HostedStore? { stores.withLock { $0[name] } }

    /// The answer of one lookup and the table generation it was valid for; kept by one thread (e.g. a connection).
    ///
    /// The store is held weakly: a memo never keeps a removed store alive (a keep-alive connection that looked up
    /// a store it then deleted would otherwise hold all of its memory until the connection closes). While the
    /// generation matches, the table still holds the store, so the weak reference still loads it.
    struct Memo {
        fileprivate let name: String
        fileprivate weak var store: HostedStore?
        fileprivate let generation: UInt64
    }

    /// The store named `name`, or nil, as ``subscript(name:)`` gives it; when `memo` holds a lookup of the same name
    /// and the table has not changed since, its answer, without taking the lock. `memo` then holds this lookup.
    func store(named name: String, memo: inout Memo?) -> HostedStore? {
        // Read before the lookup: a change racing with it leaves the memo stale, so the next call looks up again.
        let current = generation.load(ordering: .acquiring)
        if let memo, memo.generation == current, memo.name == name { return memo.store }
        let store = self[name]
        memo = Memo(name: name, store: store, generation: current)
        return store
    }

    /// A copy of the whole table.
    var all: [String: HostedStore] { stores.withLock { $0 } }

    /// The number of stores.
    var count: Int { stores.withLock { $0.count } }

    /// What ``add(_:limit:)`` did.
    enum Addition {
        case added
        /// The name is taken by this store.
        case exists(HostedStore)
        /// `limit` stores are hosted already.
        case full
    }

    /// Adds `store` unless its name is taken or `limit` stores are hosted already.
    func add(_ store: HostedStore, limit: Int) -> Addition {
        stores.withLock { stores in
            if let existing = stores[store.name] { return .exists(existing) }
            guard stores.count < limit else { return .full }
            stores[store.name] = store
            generation.add(1, ordering: .releasing)
            return .added
        }
    }

    /// Removes and returns the store named `name` (nil when there is none).
    func remove(_ name: String) -> HostedStore? {
        stores.withLock { stores in
            let removed = stores.removeValue(forKey: name)
            if removed != nil { generation.add(1, ordering: .releasing) }
            return removed
        }
    }
}

/// Open connections across all event loops, for `limits.maxConnections`.
///
/// Once ``trimDrop`` connections have closed since the most there were, it asks for their memory to be given back
/// to the OS (``MemoryReclaim/trimSoon()``): steady churn never does, a crowd leaving does.
///
/// ## Thread safety
/// Sendable: a lock around two counters.
final class ConnectionGauge: Sendable {
    private struct Counts {
        var open = 0
        /// The most connections open since the last trim request.
        var peak = 0
    }
    private let counts = Locked(Counts())
    /// Net closes from the peak that ask for a trim: 1,024.
    static let trimDrop = 1_024

    /// Counts a new connection if fewer than `limit` are open; false when the limit is reached.
    func admit(limit: Int) -> Bool {
        counts.withLock { counts in
            guard counts.open < limit else { return false }
            counts.open += 1
            if counts.open > counts.peak { counts.peak = counts.open }
            return true
        }
    }

    /// A counted connection has closed.
    func release() {
        let trim = counts.withLock { counts -> Bool in
            counts.open -= 1
            guard counts.peak - counts.open >= Self.trimDrop else { return false }
            counts.peak = counts.open
            return true
        }
        if trim { MemoryReclaim.trimSoon() }
    }
}
