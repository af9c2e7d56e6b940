import UVLoop

/// What every connection of a server shares: the stores, the limits, the loop and the open sessions.
///
/// ## Thread safety
/// Loop-confined, except the immutable `stores`, `limits` and `loop`.
final class ServerContext: @unchecked Sendable {
    let loop: EventLoop
    let limits: ServerConfiguration.Limits
    let streams: ServerConfiguration.Streams
    let timeouts: ServerConfiguration.Timeouts
    let auth: AccessPolicy?
    let cors: CORSPolicy?
    /// Stores by name: those of the configuration and those created with `PUT` (loop thread only).
    var stores: [String: any HostedStore]
    /// Reducer types stores can be created from.
    let catalog: ReducerCatalog
    /// Open connections (HTTP or WebSocket), so shutdown can reach them.
    private(set) var sessions: [ObjectIdentifier: any ServerSession] = [:]
    /// True once shutdown has begun: new requests are answered with `Connection: close`.
    var isShuttingDown = false
    /// Called when the last session has closed during shutdown.
    var onDrained: (() -> Void)?

    init(loop: EventLoop, configuration: ServerConfiguration, catalog: ReducerCatalog, stores: [String: any HostedStore]) {
        self.loop = loop
        self.catalog = catalog
        limits = configuration.limits
        streams = configuration.streams
        timeouts = configuration.timeouts
        auth = configuration.auth
        cors = configuration.cors
        self.stores = stores
    }

    func add(_ session: any ServerSession) { sessions[ObjectIdentifier(session)] = session }

    func remove(_ session: any ServerSession) {
        sessions[ObjectIdentifier(session)] = nil
        if isShuttingDown, sessions.isEmpty { onDrained?() }
    }

    /// Replaces an HTTP session by the WebSocket session it upgraded to.
    func replace(_ old: any ServerSession, with new: any ServerSession) {
        sessions[ObjectIdentifier(old)] = nil
        sessions[ObjectIdentifier(new)] = new
    }
}

/// An open connection the server can ask to go away.
protocol ServerSession: AnyObject {
    /// Server shutdown: finish what is in flight, then close (WebSockets with close code 1001).
    func goAway()
}
