import StatehouseCore
import UVLoop

/// What the connections of one event loop share: the loop, its open sessions and its connection numbers; and, with
/// every other loop of the server, the stores, the reducer catalog, the limits, the logger and the connection count.
///
/// ## Thread safety
/// Loop-confined (`policy`, `sessions`, `isShuttingDown`, `onDrained`, ``nextConnectionID()``,
/// ``nextRequestNumber()``); the other properties are immutable or Sendable.
final class ServerContext: @unchecked Sendable {
    let loop: EventLoop
    /// What a SIGHUP may change (``RuntimePolicy``): replaced whole, on this loop's thread, by ``Server/reload(from:adjusting:)``;
    /// connections read it when they open, requests when they are answered.
    var policy: RuntimePolicy
    var limits: ServerConfiguration.Limits { policy.limits }
    var streams: ServerConfiguration.Streams { policy.streams }
    var timeouts: ServerConfiguration.Timeouts { policy.timeouts }
    /// Every connection's write flow control and write-stall timeout (`streams.writeHighWaterBytes`, resuming at
    /// half of it; `timeouts.writeStallMs`).
    var writeLimits: WriteLimits { policy.writeLimits }
    var auth: AccessPolicy? { policy.auth }
    var cors: CORSPolicy? { policy.cors }
    /// Recent states each store created with `PUT` keeps (`streams.historySize` at start: not reloadable, the stores
    /// of the file keep theirs).
    let historySize: Int
    /// The start of the request ids this loop makes (`X-Request-Id`, see ``RequestID``): the process's tag, this
    /// loop's index and `-`.
    let requestIDPrefix: [UInt8]
    /// The number of the last request id this loop made.
    private var lastRequestNumber: UInt64 = 0
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
    /// The cluster this server is a node of (docs/cluster.md); nil on a single server.
    let cluster: ClusterNode?
    /// The server's logger (no metadata of its own; sessions add `conn`, stores `store`).
    let logger: Logger
    /// This loop's place among the server's loops (0-based: the `loop` label of its metrics).
    let loopIndex: Int
    /// Every loop's context (shared; filled once the server has made them all): `/metrics` reads each on its loop.
    let siblings: LoopDirectory
    /// The last connection number given on this loop; loop `i` of `n` gives `i + 1`, `i + 1 + n`, `i + 1 + 2n`, …, so
    /// numbers are unique across the server's loops without shared state.
    private var lastConnectionID: UInt64
    private let connectionIDStride: UInt64
    /// Open connections (HTTP or WebSocket), so shutdown can reach them.
    private(set) var sessions: [ObjectIdentifier: any ServerSession] = [:]
    /// True once shutdown has begun: new requests are answered with `Connection: close`.
    var isShuttingDown = false
    /// Called when the last session has closed during shutdown.
    var onDrained: (() -> Void)?

    init(
        loop: EventLoop, configuration: ServerConfiguration, catalog: ReducerCatalog, stores: StoreRegistry,
        connections: ConnectionGauge, durability: StoreDurability? = nil, logger: Logger, loopIndex: Int = 0,
        loopCount: Int = 1, siblings: LoopDirectory = LoopDirectory(), cluster: ClusterNode? = nil
    ) {
        self.cluster = cluster
        self.loop = loop
        self.loopIndex = loopIndex
        self.siblings = siblings
        self.durability = durability
        self.logger = logger
        connectionIDStride = UInt64(max(1, loopCount))
        lastConnectionID = UInt64(loopIndex) + 1 &- connectionIDStride  // wraps; the first number is loopIndex + 1
        self.catalog = catalog
        storeExecutor = configuration.storeExecutor == .loop ? loop : nil
        policy = RuntimePolicy(configuration)
        historySize = configuration.streams.historySize
        requestIDPrefix = RequestID.prefix(loopIndex: loopIndex)
        self.stores = stores
        self.connections = connections
    }

    /// A number for a new connection, unique within the server (the `conn` of its log lines).
    func nextConnectionID() -> UInt64 {
        loop.assertInLoop()
        lastConnectionID &+= connectionIDStride
        return lastConnectionID
    }

    /// A number for a request id this loop makes (see ``RequestID``): counts up from 1.
    func nextRequestNumber() -> UInt64 {
        lastRequestNumber &+= 1
        return lastRequestNumber
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
    /// The connection's number (``ServerContext/nextConnectionID()``): kept when an HTTP session becomes a WebSocket
    /// or SSE session.
    var connectionID: UInt64 { get }

    /// Server shutdown: finish what is in flight, then close (WebSockets with close code 1001).
    func goAway()
}

extension ServerSession {
    /// `conn=<connectionID>`: the metadata of the session's log lines (built only when a line is written, when passed
    /// as a logger call's `metadata:`).
    var connectionMetadata: Logger.Metadata { ["conn": String(connectionID)] }

    /// `store=<name>` (when there is a store), then `conn=<connectionID>`: a line about a store from this session.
    func connectionMetadata(store name: String?) -> Logger.Metadata {
        guard let name else { return connectionMetadata }
        return ["store": name, "conn": String(connectionID)]
    }
}
