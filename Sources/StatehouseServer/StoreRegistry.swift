import Foundation

/// The stores a server hosts, by name: those of the configuration and those created with `PUT`.
///
/// ## Thread safety
/// Sendable: one lock around the table (every event loop looks stores up; `PUT` and `DELETE` change it).
final class StoreRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var stores: [String: any HostedStore]

    init(_ stores: [String: any HostedStore]) { self.stores = stores }

    /// The store named `name`, or nil.
    subscript(name: String) -> (any HostedStore)? { lock.withLock { stores[name] } }

    /// A copy of the whole table.
    var all: [String: any HostedStore] { lock.withLock { stores } }

    /// The number of stores.
    var count: Int { lock.withLock { stores.count } }

    /// What ``add(_:limit:)`` did.
    enum Addition {
        case added
        /// The name is taken by this store.
        case exists(any HostedStore)
        /// `limit` stores are hosted already.
        case full
    }

    /// Adds `store` unless its name is taken or `limit` stores are hosted already.
    func add(_ store: any HostedStore, limit: Int) -> Addition {
        lock.withLock {
            if let existing = stores[store.name] { return .exists(existing) }
            guard stores.count < limit else { return .full }
            stores[store.name] = store
            return .added
        }
    }

    /// Removes and returns the store named `name` (nil when there is none).
    func remove(_ name: String) -> (any HostedStore)? {
        lock.withLock { stores.removeValue(forKey: name) }
    }
}

/// Open connections across all event loops, for `limits.maxConnections`.
///
/// ## Thread safety
/// Sendable: a lock around one counter.
final class ConnectionGauge: @unchecked Sendable {
    private let lock = NSLock()
    private var open = 0

    /// Counts a new connection if fewer than `limit` are open; false when the limit is reached.
    func admit(limit: Int) -> Bool {
        lock.withLock {
            guard open < limit else { return false }
            open += 1
            return true
        }
    }

    /// A counted connection has closed.
    func release() { lock.withLock { open -= 1 } }
}
