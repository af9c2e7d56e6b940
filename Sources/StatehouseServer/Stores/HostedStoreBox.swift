import Synchronization
import JSON

/// Hosts one store behind the type-erased ``HostedStore`` API: its name, stream and idempotency cache here, and its
/// typed work (decode, submit, encode) in closures a ``TypedStore`` made.
///
/// Not generic on purpose: a generic class's methods run as generic code when called through a protocol, looking
/// `Store<R>` and its nested types up at run time on every request. The closures are built where the reducer type
/// is concrete (the catalog registration), so the optimizer compiles them, and the store code they call, for it.
///
/// ## Thread safety
/// Sendable: immutable references plus the lazily made idempotency cache behind a lock.
final class HostedStoreBox: HostedStore, Sendable {
    /// What a ``TypedStore`` does, as closures.
    struct Operations: Sendable {
        let start: @Sendable () async -> Void
        let stop: @Sendable (_ done: @escaping @Sendable () -> Void) -> Void
        let reset: @Sendable (_ reply: @escaping @Sendable (Result<StateReply, APIError>) -> Void) -> Void
        let prepare: @Sendable (_ actionJSON: [UInt8]) -> Result<PreparedAction, APIError>
        let decodeClientMessage: @Sendable (_ message: JSONObject) -> ClientMessage
        let stateAt: @Sendable (_ version: UInt64) throws -> [UInt8]?
    }

    let name: String
    let reducerName: String
    let fanout: StoreFanout
    let persistence: StorePersistence?
    private let operations: Operations
    /// Made on the first keyed action (see ``idempotency``).
    private let idempotencyCache = Mutex<IdempotencyCache?>(nil)

    /// `keys`: a recovered store's unexpired idempotency keys.
    init(
        name: String, reducerName: String, fanout: StoreFanout, persistence: StorePersistence?, keys: [StoredKey],
        operations: Operations
    ) {
        self.name = name
        self.reducerName = reducerName
        self.fanout = fanout
        self.persistence = persistence
        self.operations = operations
        // A durable store's keys outlive restarts: the ones read back are answered as before.
        if !keys.isEmpty { idempotency.restore(keys, nowMs: StorageClock.nowMs) }
    }

    /// Made on the first keyed action (any loop may ask first), so a store that never sees an idempotency key
    /// never has one.
    var idempotency: IdempotencyCache {
        idempotencyCache.withLock { slot in
            if let cache = slot { return cache }
            let cache = persistence.map { IdempotencyCache(ttl: $0.durability.keyTtl) } ?? IdempotencyCache()
            slot = cache
            return cache
        }
    }

    func start() async { await operations.start() }

    func stop(done: @escaping @Sendable () -> Void) { operations.stop(done) }

    func reset(reply: @escaping @Sendable (Result<StateReply, APIError>) -> Void) { operations.reset(reply) }

    func read() -> StateReply {
        let newest = fanout.newest
        return StateReply(version: newest.version, state: newest.json)
    }

    func prepare(actionJSON: [UInt8]) -> Result<PreparedAction, APIError> { operations.prepare(actionJSON) }

    func decodeClientMessage(_ message: JSONObject) -> ClientMessage { operations.decodeClientMessage(message) }

    func state(at version: UInt64) throws -> [UInt8]? { try operations.stateAt(version) }
}
