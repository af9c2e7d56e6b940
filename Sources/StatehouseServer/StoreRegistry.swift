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

    /// Adds `store` unless its name is taken. Returns the store already holding the name, or nil when added.
    func add(_ store: any HostedStore) -> (any HostedStore)? {
        lock.withLock {
            if let existing = stores[store.name] { return existing }
            stores[store.name] = store
            return nil
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
