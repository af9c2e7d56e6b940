import StatehouseCore
import UVLoop

/// What the connections of one event loop share: the loop and its open sessions; and, with every other loop of the
/// server, the stores, the reducer catalog, the limits and the connection count.
///
/// ## Thread safety
/// Loop-confined (`sessions`, `isShuttingDown`, `onDrained`); the other properties are immutable or Sendable.
final class ServerContext: @unchecked Sendable {
    let loop: EventLoop
    let limits: ServerConfiguration.Limits
    let streams: ServerConfiguration.Streams
    let timeouts: ServerConfiguration.Timeouts
    /// Every connection's write flow control and write-stall timeout (`streams.writeHighWaterBytes`, resuming at
    /// half of it; `timeouts.writeStallMs`).
    let writeLimits: WriteLimits
    let auth: AccessPolicy?
    let cors: CORSPolicy?
    /// Stores by name (shared by all loops).
    let stores: StoreRegistry
    /// Open connections on all loops (shared).
    let connections: ConnectionGauge
    /// Reducer types stores can be created from.
    let catalog: ReducerCatalog
    /// Where a store created on this loop runs: the loop, or the pool (`nil`).
    let storeExecutor: (any StoreExecutor)?
    /// Where durable stores are written (configuration `storage`); nil: every store in memory.
    let durability: StoreDurability?
    /// Open connections (HTTP or WebSocket), so shutdown can reach them.
    private(set) var sessions: [ObjectIdentifier: any ServerSession] = [:]
    /// True once shutdown has begun: new requests are answered with `Connection: close`.
    var isShuttingDown = false
    /// Called when the last session has closed during shutdown.
    var onDrained: (() -> Void)?

    init(
        loop: EventLoop, configuration: ServerConfiguration, catalog: ReducerCatalog, stores: StoreRegistry,
        connections: ConnectionGauge, durability: StoreDurability? = nil
    ) {
        self.loop = loop
        self.durability = durability
        self.catalog = catalog
        storeExecutor = configuration.storeExecutor == .loop ? loop : nil
        limits = configuration.limits
        streams = configuration.streams
        timeouts = configuration.timeouts
        writeLimits = WriteLimits(
            highWaterBytes: configuration.streams.writeHighWaterBytes, stallTimeoutMs: configuration.timeouts.writeStallMs)
        auth = configuration.auth
        cors = configuration.cors
        self.stores = stores
        self.connections = connections
    }

    func add(_ session: any ServerSession) {
        loop.assertInLoop()
        sessions[ObjectIdentifier(session)] = session
    }

    /// A session's connection has closed (an upgraded session counts as its HTTP session did).
    func remove(_ session: any ServerSession) {
        loop.assertInLoop()
        guard sessions.removeValue(forKey: ObjectIdentifier(session)) != nil else { return }
        connections.release()
        if isShuttingDown, sessions.isEmpty, let drained = onDrained {
            onDrained = nil
            drained()
        }
    }

    /// Replaces an HTTP session by the WebSocket session it upgraded to.
    func replace(_ old: any ServerSession, with new: any ServerSession) {
        loop.assertInLoop()
        sessions[ObjectIdentifier(old)] = nil
        sessions[ObjectIdentifier(new)] = new
    }
}

/// An open connection the server can ask to go away.
protocol ServerSession: AnyObject {
    /// The session's socket.
    var connection: TCPConnection { get }

    /// Server shutdown: finish what is in flight, then close (WebSockets with close code 1001).
    func goAway()
}
