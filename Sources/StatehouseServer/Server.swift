import Foundation
import HTTP1
import StatehouseCore
import Synchronization
import UVLoop
import Locking

/// A Statehouse server: hosts the configured stores and serves the HTTP and WebSocket API on
/// `configuration.eventLoops` libuv loops, each a thread with its own listening socket on the same address
/// (`SO_REUSEPORT`). Every store is shared by all loops; its actor runs on one loop (configured stores round-robin,
/// a store created with `PUT` on the loop of the connection that created it) or, with `listen.storeExecutor`
/// `"pool"`, on Swift's concurrency pool. Effects run on the pool.
///
/// ```swift
/// let server = try Server(configuration: config, catalog: catalog)   // logs to stderr at .info
/// let port = try server.start()        // listening now
/// server.shutdown()                    // graceful; returns when the loop has ended
/// ```
///
/// ## Thread safety
/// `start`, `shutdown` and `waitUntilStopped` may be called from any thread except the loop's.
public final class Server: @unchecked Sendable {
    /// The configuration the server started with (after the command line's overrides).
    let configuration: ServerConfiguration
    /// The configuration in force: the start one, with what each SIGHUP reloaded (see +Reload); also serializes
    /// reloads.
    let applied: Locked<ServerConfiguration>
    /// The log level when the configuration gives none (`log.level`): the logger's at init (`STATEHOUSE_LOG`).
    let defaultLogLevel: Logger.Level
    /// The stores built at start (configured, and recovered ones made with `PUT`), by name; a reload applies a
    /// configured store's `log` to the one here.
    let stores: [String: HostedStore]
    /// The database of durable stores (configuration `storage`); nil without one.
    private let durability: StoreDurability?
    /// This server as a node of a cluster (configuration `storage.redis`); nil on a single server.
    private let cluster: ClusterNode?
    let loops: [EventLoop]
    let contexts: [ServerContext]
    private var listeners: [TCPListener] = []
    var signalWatchers: [SignalWatcher] = []
    private let stopped = DispatchSemaphore(value: 0)
    /// Connections being refused (a `503` on its way): each holds a file descriptor until its client closes.
    private let refusing = ConnectionGauge()
    private let refusals: RateLimitedLog
    private let acceptFailures: RateLimitedLog
    /// Where the server's log lines go; sessions, stores and storage get it (with their metadata) from here.
    let logger: Logger
    let phase = Locked(Phase.created)

    /// The server's lifecycle:
    ///
    /// ```
    /// created ──start()──▶ running ──shutdown()──▶ stopping ──▶ stopped
    ///    └────────── start() fails to listen ──────────────────────▲
    /// ```
    ///
    /// A SIGHUP reload (+Reload) happens only while `running`.
    enum Phase { case created, running, stopping, stopped }

    /// Builds the stores of `configuration` from `catalog` (not started yet).
    /// - Parameters:
    ///   - logger: where every log line of the server goes: start and shutdown, stores (metadata `store`),
    ///     connections (metadata `conn`, a number unique within this server), storage. Default: standard error
    ///     (``StandardErrorLogHandler``) at `.info`.
    ///   - configurationPath: names the file in errors.
    /// - Throws: ``ConfigurationError`` for an unknown reducer or an initial state the reducer cannot decode, or naming
    ///   the database file when it cannot be opened or a store in it cannot be recovered; `UVError` if the event loop
    ///   cannot be created.
    public init(
        configuration: ServerConfiguration, catalog: ReducerCatalog, logger: Logger = Logger(),
        configurationPath: String = "configuration"
    ) throws {
        self.configuration = configuration
        self.logger = logger
        applied = Locked(configuration)
        defaultLogLevel = logger.level
        if let level = configuration.logLevel { logger.changeLevel(to: level) }
        refusals = RateLimitedLog(logger: logger)
        acceptFailures = RateLimitedLog(logger: logger)
        // The database first: one that cannot be opened, or a store in it that cannot be recovered, stops the start.
        durability = try configuration.storage.map { storage throws(ConfigurationError) in
            do {
                return StoreDurability(database: try StoreDatabase.open(storage, logger: logger), logger: logger)
            } catch {
                throw ConfigurationError(path: storage.path, location: "", problem: "cannot open the database (\(error))")
            }
        }
        loops = try (0..<max(1, configuration.eventLoops)).map { _ throws(UVError) in try EventLoop() }
        let executors: [any StoreExecutor] = configuration.storeExecutor == .loop ? loops : []
        let built: [HostedStore]
        if let clustered = configuration.cluster {
            let node = try ClusterNode(clustered, path: configurationPath, loop: loops[0], logger: logger)
            do {
                built = try catalog.makeClusteredStores(
                    for: configuration, path: configurationPath, executors: executors, node: node, logger: logger)
            } catch {
                node.stop()
                throw error
            }
            cluster = node
        } else {
            cluster = nil
            do {
                built = try catalog.makeStores(
                    for: configuration, path: configurationPath, executors: executors, durability: durability, logger: logger)
            } catch {
                durability?.database.close()
                throw error
            }
        }
        stores = Dictionary(uniqueKeysWithValues: built.map { ($0.name, $0) })
        let registry = StoreRegistry(stores)
        let connections = ConnectionGauge()
        let loopCount = loops.count
        let siblings = LoopDirectory()
        contexts = loops.enumerated().map { [durability, cluster] index, loop in
            ServerContext(
                loop: loop, configuration: configuration, catalog: catalog, stores: registry, connections: connections,
                durability: durability, logger: logger, loopIndex: index, loopCount: loopCount, siblings: siblings,
                cluster: cluster)
        }
        siblings.fill(contexts)
        if let storage = configuration.storage {
            let durable = built.filter { $0.persistence != nil }.count
            logger.info("storage \(storage.path): sync \(storage.sync.rawValue), \(durable) durable store(s) recovered or created")
        }
    }

    /// The table of hosted stores, shared by every loop (tests look stores up in it).
    var registry: StoreRegistry { contexts[0].stores }

    /// Starts the stores and the loop, then binds and listens.
    /// - Returns: the port bound (useful with port 0).
    /// - Throws: `UVError` when the address cannot be bound (e.g. `EADDRINUSE`).
    @discardableResult
    public func start() throws -> Int {
        phase.withLock { precondition($0 == .created, "Server.start() called twice"); $0 = .running }
        prepareProcessSignals()
        let (connectionLimit, fds) = admittedConnections()
        for loop in loops { loop.start() }
        startStores()  // after the loops: each store runs on one of them
        cluster?.start()  // subscribed to every store's changes, leases renewed from now on
        var port = configuration.port
        do {
            // The first listener picks the port (when 0) and fails if the address is taken; the others join it.
            for (index, context) in contexts.enumerated() {
                let sharing: PortSharing = contexts.count == 1 ? .none : index == 0 ? .opensGroup : .joinsGroup
                let listener = try listen(context, port: port, sharing: sharing, connectionLimit: connectionLimit, fds: fds)
                listeners.append(listener)
                port = listener.port
            }
        } catch {
            for loop in loops { loop.stop() }
            phase.withLock { $0 = .stopped }
            stopped.signal()
            throw error
        }
        let names = stores.keys.sorted().joined(separator: ", ")
        logger.info(
            "serving \(stores.count) store(s) [\(names)] on \(configuration.host):\(port) with \(loops.count) event loop(s), "
                + "stores on the \(configuration.storeExecutor == .loop ? "loops" : "pool"), "
                + "at most \(connectionLimit) connections")
        return port
    }

    /// Raises the soft file descriptor limit to the hard one, and returns how many connections to admit: at most
    /// `limits.maxConnections`, and no more than the descriptors leave room for (warning once when that is fewer);
    /// with the descriptor limit (nil when it could not be read).
    private func admittedConnections() -> (Int, FileDescriptorLimit?) {
        let configured = configuration.limits.maxConnections
        guard let fds = FileDescriptorLimit.raised() else { return (configured, nil) }
        logger.debug("file descriptor limit (RLIMIT_NOFILE): soft \(fds.softBefore) → \(fds.soft), hard \(fds.hard)")
        let room = fds.connectionLimit(eventLoops: loops.count)
        guard configured > room else { return (configured, fds) }
        logger.warning(
            "limits.maxConnections is \(configured), but the file descriptor limit (ulimit -n \(fds.soft), hard "
                + "\(fds.hard)) leaves room for \(room) connections (\(FileDescriptorLimit.reserved(eventLoops: loops.count)) "
                + "kept for the process and for refusals): past \(room), connections get 503 too_many_connections; "
                + "raise the hard limit (ulimit -Hn, systemd LimitNOFILE=) or lower maxConnections")
        return (room, fds)
    }

    /// Why a connection past `connectionLimit` is refused, and what to do, for the refusal line: the file descriptor
    /// limit when it is what sets the limit, else `limits.maxConnections`.
    static func refusalReason(connectionLimit: Int, fds: FileDescriptorLimit?, eventLoops: Int) -> String {
        if let fds, fds.connectionLimit(eventLoops: eventLoops) == connectionLimit {
            return "\(connectionLimit) connections are open, the most the file descriptor limit allows (ulimit -n "
                + "\(fds.soft), hard \(fds.hard), \(FileDescriptorLimit.reserved(eventLoops: eventLoops)) kept for the "
                + "process); raise it (ulimit -n, ulimit -Hn, systemd LimitNOFILE=) to admit more"
        }
        return "\(connectionLimit) connections are open (limits.maxConnections); raise limits.maxConnections to admit more"
    }

    /// A listener on `context`'s loop, admitting up to `connectionLimit` connections across all loops.
    private func listen(
        _ context: ServerContext, port: Int, sharing: PortSharing, connectionLimit: Int, fds: FileDescriptorLimit?
    ) throws -> TCPListener {
        let (host, loop) = (configuration.host, context.loop)
        let (refusing, refusals, acceptFailures) = (self.refusing, self.refusals, self.acceptFailures)
        let refusalLimit = FileDescriptorLimit.refusalLimit(eventLoops: loops.count)
        let reason = Self.refusalReason(connectionLimit: connectionLimit, fds: fds, eventLoops: loops.count)
        let descriptorLimit = fds.map { "ulimit -n \($0.soft), hard \($0.hard)" } ?? "unknown"
        return try loop.submitAndWait {
            try TCPListener(
                loop: loop, host: host, port: port, sharing: sharing,
                onAcceptFailed: { error in
                    acceptFailures.record { count in
                        "accept failed \(count) time(s) since the last such line: \(error); clients may have been "
                            + "disconnected without an answer: raise the file descriptor limit (now \(descriptorLimit); "
                            + "ulimit -n, systemd LimitNOFILE=)"
                    }
                }
            ) { connection in
                guard context.connections.admit(limit: connectionLimit) else {
                    refusals.record { count in
                        "refused \(count) connection(s) with 503 too_many_connections since the last such line (one "
                            + "per \(refusals.intervalSeconds) s at most): \(reason)"
                    }
                    let id = RequestID.made(prefix: context.requestIDPrefix, number: context.nextRequestNumber())
                    return Self.refuse(connection, lingering: refusing, limit: refusalLimit, requestID: id)
                }
                _ = HTTPSession(connection: connection, context: context)
            }
        }
    }

    /// The port the server listens on (0 before ``start()``).
    public var port: Int { listeners.first?.port ?? 0 }

    /// Connections open on each event loop now (diagnostics and tests); waits for each loop to answer.
    func openConnectionsPerLoop() -> [Int] {
        contexts.map { context in (try? context.loop.submitAndWait { context.sessions.count }) ?? 0 }
    }

    /// SIGINT and SIGTERM start a graceful ``shutdown()``.
    public func handleTerminationSignals() {
        let loop = loops[0]
        signalWatchers += (try? loop.submitAndWait { [self] in
            [SIGINT, SIGTERM].map { signal in
                SignalWatcher(loop: loop, signal: signal) { [self] in
                    Thread.detachNewThread { [self] in shutdown() }
                }
            }
        }) ?? []
    }

    /// SIGHUP reloads the configuration file at `path` (``reload(from:adjusting:)``, on a thread of its own, off the
    /// loops), `adjusting` each reading as the command line adjusted the first (`--host`, `--port`). Without this, a
    /// SIGHUP ends the process (the signal's default action). Call it before ``handleTerminationSignals()`` or after,
    /// once, after ``start()``.
    public func handleReloadSignal(
        configurationPath path: String, adjusting: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in }
    ) {
        let loop = loops[0]
        if let watcher = try? loop.submitAndWait({ [self] in
            SignalWatcher(loop: loop, signal: SIGHUP) { [self] in
                Thread.detachNewThread { [self] in _ = reload(from: path, adjusting: adjusting) }
            }
        }) {
            signalWatchers.append(watcher)
        }
    }

    /// Stops accepting, lets in-flight HTTP responses finish, closes WebSockets with 1001, stops the stores, then ends
    /// the loops.
    /// Waits at most `graceMs` milliseconds for connections to go. Returns when the loop has ended; idempotent.
    public func shutdown(graceMs: Int = 3000) {
        let first = phase.withLock { phase -> Bool in
            guard phase == .running else { return false }
            phase = .stopping
            return true
        }
        guard first else {
            waitUntilStopped()
            return
        }
        logger.info("shutting down: closing the listeners and \(graceMs) ms for connections to finish")
        let drained = DispatchGroup()
        let watchers = signalWatchers
        for (context, listener) in zip(contexts, listeners) {
            drained.enter()
            context.loop.execute {
                listener.close()
                context.isShuttingDown = true
                context.onDrained = { drained.leave() }
                let sessions = Array(context.sessions.values)
                if sessions.isEmpty { context.onDrained = nil; drained.leave() }
                for session in sessions { session.goAway() }
            }
        }
        loops[0].execute { for watcher in watchers { watcher.close() } }
        _ = drained.wait(timeout: .now() + .milliseconds(graceMs))
        cluster?.drain()  // every lease released, so other nodes take the stores at once
        stopStores()
        cluster?.stop()
        durability?.database.close()  // after the stops: every batch they wrote is committed
        for loop in loops { loop.stop() }
        phase.withLock { $0 = .stopped }
        stopped.signal()
    }

    /// Blocks until the server has shut down.
    public func waitUntilStopped() {
        stopped.wait()
        stopped.signal()
    }

    /// Over the connection limit: 503 with `Retry-After` (RFC 9110 §15.6.4), sent before the client's request is
    /// read; then FIN, and the connection waits (≤ 2 s) for the client to close, so the answer is not lost to a reset.
    /// While `limit` refused connections already wait so (`lingering`), it is closed as soon as the kernel has the
    /// bytes, so a flood cannot use up the descriptors.
    private static func refuse(_ connection: TCPConnection, lingering: ConnectionGauge, limit: Int, requestID: String) {
        var response = Responses.error(.tooManyConnections)
        response.fields.append(HTTPField(name: RequestID.fieldName, value: requestID))
        connection.write(response.serialized(keepAlive: false))
        guard lingering.admit(limit: limit) else { return connection.close() }
        connection.onClosed = { lingering.release() }
        connection.closeAfterWrites()
    }

    /// Stops every store (their effects are cancelled) while the loops they run on still run; waits up to 1 s.
    private func stopStores() {
        let stopped = DispatchGroup()
        for store in contexts[0].stores.all.values {
            stopped.enter()
            store.stop { stopped.leave() }
        }
        _ = stopped.wait(timeout: .now() + .seconds(1))
    }

    /// Starts every store and returns once they have started. The starting task prefers the first loop as its
    /// executor, so it needs no thread of Swift's cooperative pool: `start()` may be called from async code on a
    /// machine whose pool threads are all busy or blocked (a 1- or 2-core machine) without deadlocking.
    private func startStores() {
        let done = DispatchSemaphore(value: 0)
        let stores = Array(self.stores.values)
        Task(executorPreference: loops[0]) {
            for store in stores { await store.start() }
            done.signal()
        }
        done.wait()
    }
}
