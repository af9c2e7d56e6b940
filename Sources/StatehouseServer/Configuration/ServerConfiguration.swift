import Foundation
public import StatehouseCore
import UVLoop

/// Where the stores' actors (reduces, observers, replies) run; effects run on Swift's concurrency pool either way.
public enum StoreExecutorChoice: String, Sendable {
    /// On an event loop: configured stores round-robin over the loops, a store created with `PUT` on the loop of
    /// the connection that created it. An action reaches its store and its reply the connection with no thread
    /// hand-off when both are on one loop; a slow reducer delays that loop's connections.
    case loop
    /// On Swift's concurrency pool: a slow reducer delays only its own store, at two thread hand-offs per batch of
    /// actions.
    case pool
}

/// The server's configuration, read from `Config/statehouse.json` (see ``ConfigurationLoader``).
///
/// Shape:
/// ```json
/// {"listen":{"host":"127.0.0.1","port":8080,"eventLoops":2,"storeExecutor":"loop"},
///  "limits":{"maxBodyBytes":1048576,"maxHeaderBytes":16384,"maxMessageBytes":1048576},
///  "storage":{"path":"data/statehouse.sqlite","sync":"commit"}, "log":{"level":"info"},
///  "stores":[{"name":"counter","reducer":"Counter"},{"name":"todos","reducer":"TodoList","state":{…}},
///            {"name":"scratch","reducer":"Counter","durable":false,"log":["actions","state"]}]}
/// ```
public struct ServerConfiguration: Sendable {
    /// Address to listen on: an IPv4 or IPv6 literal. Default `127.0.0.1`.
    public var host: String = "127.0.0.1"
    /// TCP port; 0 binds an ephemeral port. Default 8080.
    public var port: Int = 8080
    /// Event loops (threads serving connections), each with its own listening socket on `host:port`
    /// (`SO_REUSEPORT`: the kernel spreads new connections over them). Default: the CPUs this process may run on.
    public var eventLoops: Int = EventLoop.availableParallelism
    /// Where the stores' actors run (configuration `listen.storeExecutor`). Default ``StoreExecutorChoice/loop``.
    public var storeExecutor: StoreExecutorChoice = .loop
    /// Size limits on input.
    public var limits = Limits()
    /// State streams: history, slow consumers, SSE.
    public var streams = Streams()
    /// How long the server waits for clients, ms.
    public var timeouts = Timeouts()
    /// Bearer tokens and their grants (configuration `auth`); nil: no authentication.
    public var auth: AccessPolicy?
    /// Browser origins allowed (configuration `cors`); nil: no CORS headers and no Origin checks.
    public var cors: CORSPolicy?
    /// The level of the log (configuration `log.level`: `debug`, `info`, `warning`, `error`); nil: the level
    /// `STATEHOUSE_LOG` gives (or the logger's own). Set, it wins over `STATEHOUSE_LOG`; a SIGHUP applies a change,
    /// and removing the key goes back to `STATEHOUSE_LOG`'s level.
    public var logLevel: Logger.Level?
    /// The stores to host, in file order.
    public var stores: [StoreDeclaration] = []
    /// Where durable stores are written (configuration `storage`); nil: every store lives in memory only.
    public var storage: StorageConfiguration?
    /// The cluster this server is a node of (configuration `storage.redis`, docs/cluster.md); nil: a single server.
    public var cluster: ClusterConfiguration?

    public init(
        host: String = "127.0.0.1", port: Int = 8080, limits: Limits = Limits(), streams: Streams = Streams(),
        timeouts: Timeouts = Timeouts(), stores: [StoreDeclaration] = []
    ) {
        self.host = host
        self.port = port
        self.limits = limits
        self.streams = streams
        self.timeouts = timeouts
        self.stores = stores
    }

    /// How state streams behave (configuration `streams`).
    public struct Streams: Sendable, Equatable {
        /// Recent states each store keeps for resume and patches. Default 64.
        public var historySize = 64
        /// Unsent bytes per connection past which it is write-paused: an HTTP connection stops reading and answering
        /// its queued requests, a subscriber is *behind* and gets only a catch-up message once drained. Writing
        /// resumes at half of it. Default 1 MiB.
        public var writeHighWaterBytes = 1_048_576
        /// How long a subscriber may stay behind before it is closed (WebSocket 4008). Default 30 s.
        public var maxLagSeconds = 30
        /// Interval of the SSE heartbeat comment, ms. Default 15,000.
        public var sseHeartbeatMs = 15_000

        public init(historySize: Int = 64, writeHighWaterBytes: Int = 1_048_576, maxLagSeconds: Int = 30, sseHeartbeatMs: Int = 15_000) {
            self.historySize = historySize
            self.writeHighWaterBytes = writeHighWaterBytes
            self.maxLagSeconds = maxLagSeconds
            self.sseHeartbeatMs = sseHeartbeatMs
        }
    }

    /// Limits on what a client may send, in bytes.
    public struct Limits: Sendable, Equatable {
        /// Largest request body (HTTP 413 above it). Default 1 MiB.
        public var maxBodyBytes = 1_048_576
        /// Largest request line plus header section (HTTP 431 above it). Default 16 KiB.
        public var maxHeaderBytes = 16_384
        /// Largest WebSocket message, all fragments together (close code 1009 above it). Default 1 MiB.
        public var maxMessageBytes = 1_048_576
        /// Most header field lines in one request (HTTP 431 above it). Default 100.
        public var maxHeaderFields = 100
        /// Most open connections (HTTP, WebSocket and SSE together); past it new ones get 503 with `Retry-After`
        /// and are closed. Default 10,000.
        public var maxConnections = 10_000
        /// Most stores hosted at once (configured ones included); past it `PUT /stores/{name}` gets 507
        /// `too_many_stores`. A small store costs about 1.3 KiB. Default 100,000.
        public var maxStores = 100_000

        public init(
            maxBodyBytes: Int = 1_048_576, maxHeaderBytes: Int = 16_384, maxMessageBytes: Int = 1_048_576,
            maxHeaderFields: Int = 100, maxConnections: Int = 10_000, maxStores: Int = 100_000
        ) {
            self.maxBodyBytes = maxBodyBytes
            self.maxHeaderBytes = maxHeaderBytes
            self.maxMessageBytes = maxMessageBytes
            self.maxHeaderFields = maxHeaderFields
            self.maxConnections = maxConnections
            self.maxStores = maxStores
        }
    }

    /// How long the server waits for clients (configuration `timeouts`), milliseconds.
    public struct Timeouts: Sendable, Equatable {
        /// From a request's first byte to the end of its head; then 408 and close (slow-loris). Default 10,000.
        public var headerTimeoutMs = 10_000
        /// From the end of a request's head to the end of its body; then 408 and close. Default 30,000.
        public var bodyTimeoutMs = 30_000
        /// A keep-alive connection with no request in progress is closed after this. Default 60,000.
        public var idleTimeoutMs = 60_000
        /// A WebSocket that received nothing for this long is pinged. Default 30,000.
        public var pingIntervalMs = 30_000
        /// A pinged WebSocket that sends nothing back within this is dropped (not while its ping still waits behind
        /// unsent bytes: the lag and write-stall rules own that case). Default 10,000.
        public var pongTimeoutMs = 10_000
        /// A connection (HTTP, WebSocket or SSE, open or closing after its writes) with unsent bytes whose peer
        /// reads nothing for this long is closed; checked every quarter of it. Default 30,000.
        public var writeStallMs = 30_000

        public init(
            headerTimeoutMs: Int = 10_000, bodyTimeoutMs: Int = 30_000, idleTimeoutMs: Int = 60_000,
            pingIntervalMs: Int = 30_000, pongTimeoutMs: Int = 10_000, writeStallMs: Int = 30_000
        ) {
            self.headerTimeoutMs = headerTimeoutMs
            self.bodyTimeoutMs = bodyTimeoutMs
            self.idleTimeoutMs = idleTimeoutMs
            self.pingIntervalMs = pingIntervalMs
            self.pongTimeoutMs = pongTimeoutMs
            self.writeStallMs = writeStallMs
        }
    }

    /// One hosted store: its name, its reducer type's name, an optional initial state as JSON text, whether it is
    /// durable, and what it logs about its actions and states.
    public struct StoreDeclaration: Sendable, Equatable {
        /// Matches `[A-Za-z0-9._-]{1,64}`, and is not `.` or `..`.
        public var name: String
        /// A name registered in the ``ReducerCatalog``, e.g. `"Counter"`.
        public var reducer: String
        /// The initial state as JSON bytes; nil means the reducer's own initial state.
        public var initialState: [UInt8]?
        /// Whether the store is written to the configuration's `storage` (ignored without one). Default true;
        /// `"durable": false` keeps it in memory only.
        public var durable: Bool
        /// What the store logs about each action and each new state (configuration `"log": ["actions", "state"]`,
        /// see ``StatehouseCore/StoreLogging``), through the server's logger at level `info` with `store=<name>`.
        /// Default `[]`: nothing. A reload (SIGHUP) applies a change to a store that was configured at start.
        public var log: StoreLogging

        public init(
            name: String, reducer: String, initialState: [UInt8]? = nil, durable: Bool = true, log: StoreLogging = []
        ) {
            self.name = name
            self.reducer = reducer
            self.initialState = initialState
            self.durable = durable
            self.log = log
        }
    }

    /// The address to bind for `host`: an IPv4 or IPv6 literal as is, `localhost` as `127.0.0.1`; nil otherwise
    /// (host names are not resolved).
    public static func bindAddress(for host: String) -> String? {
        if host == "localhost" { return "127.0.0.1" }
        var buffer = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, host, &buffer) == 1 || inet_pton(AF_INET6, host, &buffer) == 1 { return host }
        return nil
    }

    /// Whether `name` is a valid store name: 1 to 64 characters from `A-Z a-z 0-9 . _ -`, and not `.` or `..` (path
    /// segments that clients and proxies resolve away, RFC 3986 §5.2.4: such a store could only be reached encoded).
    public static func isValidStoreName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        return (1...64).contains(bytes.count) && name != "." && name != ".." && bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }
    }
}
