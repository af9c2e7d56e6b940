import Synchronization
import StatehouseCore
import JSON
import Locking

/// What the API needs from a store, whatever its reducer: JSON in, JSON out. Its name, stream and idempotency cache
/// are here; its typed work (decode, submit, encode) is in closures a ``TypedStore`` made.
///
/// A final class, not a protocol: it has one shape, so sessions hold it directly (no existential on every request).
/// Not generic on purpose: a generic class's methods run as generic code when called from non-generic code, looking
/// `Store<R>` and its nested types up at run time on every request. The closures are built where the reducer type
/// is concrete (the catalog registration), so the optimizer compiles them, and the store code they call, for it.
///
/// ## Thread safety
/// Sendable (immutable references plus the lazily made idempotency cache behind a lock); every method may be called
/// from any thread. Replies run on the store's actor: hop to the loop before touching a connection.
final class HostedStore: Sendable {
    /// What a ``TypedStore`` does, as closures.
    struct Operations: Sendable {
        let start: @Sendable () async -> Void
        /// Commands that answer nothing but when done (one closure for them: an idle store's heap cost is budgeted,
        /// StoreMemoryTests).
        let control: @Sendable (_ command: Command) -> Void
        let reset: @Sendable (_ reply: @escaping @Sendable (Result<StateReply, APIError>) -> Void) -> Void
        let prepare: @Sendable (_ actionJSON: [UInt8]) -> Result<PreparedAction, APIError>
        let decodeClientMessage: @Sendable (_ message: JSONObject) -> ClientMessage
        let stateAt: @Sendable (_ version: UInt64) throws -> [UInt8]?
        /// The actions the store's reducer ran and dropped so far, and its reduce times (metrics).
        let actionCounts: @Sendable () -> ActionFigures
    }

    /// What ``Operations/control`` does.
    enum Command: Sendable {
        /// Stop the store for good (``StatehouseCore/Store/enqueueStop(completion:)``); `done` runs on its actor.
        case stop(done: @Sendable () -> Void)
        /// Change what the store logs (``StatehouseCore/Store/setLogging(_:)``), on its actor soon after.
        case setLogging(StoreLogging)
    }

    /// The store's name from the configuration.
    let name: String
    /// The registered name of its reducer type, e.g. `"Counter"`.
    let reducerName: String
    /// The store's history and stream subscribers.
    let fanout: StoreFanout
    /// Where the store is written: its SQLite database, or its cluster (one word: an idle store's heap cost is
    /// budgeted, StoreMemoryTests); nil for a store in memory only.
    private let backing: Backing?

    enum Backing {
        case durable(StorePersistence)
        case cluster(ClusterLink)
    }

    /// Where the store is written in SQLite; nil for a store in memory only or of a cluster.
    var persistence: StorePersistence? {
        if case .durable(let persistence) = backing { return persistence }
        return nil
    }

    /// The store as one node of a cluster serves it (docs/cluster.md); nil on a single server.
    var cluster: (any ClusterMember)? {
        if case .cluster(let link) = backing { return link.member }
        return nil
    }

    /// How long an idempotency key's outcome is kept, seconds, when the store writes keys (its database's or its
    /// cluster's `keyTtlSeconds`); nil for a store in memory (the cache's default).
    var keyTtlSeconds: Int? {
        switch backing {
        case .durable(let persistence): persistence.durability.configuration.keyTtlSeconds
        case .cluster(let link): link.member.keyTtlSeconds
        case nil: nil
        }
    }
    private let operations: Operations
    /// What a store keeps behind one lock: the idempotency cache (made on the first keyed action, see
    /// ``idempotency``) and the count of refused actions by error code (an error path: a lock is cheap enough). One
    /// lock, not two: an idle store's heap cost is budgeted (StoreMemoryTests).
    private struct SideTables {
        var idempotency: IdempotencyCache?
        var refusals: [String: UInt64] = [:]
    }
    private let sideTables = Locked(SideTables())

    /// `keys`: a recovered store's unexpired idempotency keys.
    init(
        name: String, reducerName: String, fanout: StoreFanout, persistence: StorePersistence?, keys: [StoredKey],
        operations: Operations, cluster: (any ClusterMember)? = nil
    ) {
        backing = if let persistence { .durable(persistence) } else { cluster.map { .cluster(ClusterLink(member: $0)) } }
        self.name = name
        self.reducerName = reducerName
        self.fanout = fanout
        self.operations = operations
        // A durable store's keys outlive restarts: the ones read back are answered as before.
        if !keys.isEmpty { idempotency.restore(keys, nowMs: StorageClock.nowMs) }
    }

    /// A cluster member behind one class reference (``Backing`` stays one word).
    ///
    /// ## Thread safety
    /// Immutable.
    final class ClusterLink: Sendable {
        let member: any ClusterMember
        init(member: any ClusterMember) { self.member = member }
    }

    /// Outcomes of keyed actions. Made on the first keyed action (any loop may ask first), so a store that never sees
    /// an idempotency key never has one.
    var idempotency: IdempotencyCache {
        sideTables.withLock { tables in
            if let cache = tables.idempotency { return cache }
            let cache = keyTtlSeconds.map { IdempotencyCache(ttl: .seconds($0)) } ?? IdempotencyCache()
            tables.idempotency = cache
            return cache
        }
    }

    /// Starts the store (its `bind()` effects) and the state broadcast. Call once before serving.
    func start() async { await operations.start() }

    /// Stops the store for good (effects cancelled, later actions dropped); `done` runs on the store's actor.
    func stop(done: @escaping @Sendable () -> Void) { operations.control(.stop(done: done)) }

    /// Changes what the store logs about its actions and states (``StatehouseCore/StoreLogging``); applied on the
    /// store's actor soon after the call, from the next action it takes then (a reload applies a configuration's `log`
    /// so).
    func setLogging(_ logging: StoreLogging) { operations.control(.setLogging(logging)) }

    /// Resets the store (FIFO with actions): effects cancelled, initial state restored, `bind()` restarted.
    /// `reply` runs on the store's actor with the state after the reset.
    /// A durable store's reset that could not be written is undone: `.failure` (``APIError/notWritten(_:)``).
    func reset(reply: @escaping @Sendable (Result<StateReply, APIError>) -> Void) { operations.reset(reply) }

    /// The newest version and state (from the history: no hop to the store's actor).
    func read() -> StateReply {
        let newest = fanout.newest
        return StateReply(version: newest.version, state: newest.json)
    }

    /// Decodes one Flux Standard Action from JSON bytes, ready to be submitted.
    /// A refusal is counted (``refusedActions``).
    func prepare(actionJSON: [UInt8]) -> Result<PreparedAction, APIError> {
        let result = operations.prepare(actionJSON)
        if case .failure(let error) = result { countRefusal(error) }
        return result
    }

    /// Decodes one parsed WebSocket client message (`{"type":"action","ref":…,"action":{…}}`).
    /// A message that cannot be acted on is counted as refused (``refusedActions``).
    func decodeClientMessage(_ message: JSONObject) -> ClientMessage {
        let decoded = operations.decodeClientMessage(message)
        if case .invalid(_, let error) = decoded { countRefusal(error) }
        return decoded
    }

    /// Actions refused because they did not decode (an HTTP `POST` body, a WebSocket `action` message), by error
    /// code, since the store was created.
    var refusedActions: [String: UInt64] { sideTables.withLock { $0.refusals } }

    /// What the store's reducer did so far (``StatehouseCore/ActionCounts``), for metrics.
    typealias ActionFigures = (reduced: UInt64, dropped: UInt64, reduceDurations: DurationHistogram.Snapshot?)

    /// Actions the store's reducer ran and dropped so far, and how long its reduces took (metrics).
    var actionCounts: ActionFigures { operations.actionCounts() }

    private func countRefusal(_ error: APIError) { sideTables.withLock { $0.refusals[error.code, default: 0] += 1 } }

    /// The state at `version` rebuilt from the journal (its snapshot and the actions after it through the reducer), as
    /// JSON; blocking (run it off the event loops). nil when the version is not retained or the store is not durable.
    /// - Throws: ``StorageError``, or a decoding error for a snapshot or action the reducer no longer reads.
    func state(at version: UInt64) throws -> [UInt8]? { try operations.stateAt(version) }
}
