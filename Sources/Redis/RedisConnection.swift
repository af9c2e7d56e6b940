internal import CHiredis
#if canImport(Glibc)
import Glibc
#endif

/// A blocking connection to one Redis server (a hiredis `redisContext` in blocking mode), speaking RESP2.
///
/// Every command is an argv of byte arrays, sent as a RESP2 array of bulk strings: no formatting, binary safe (NUL,
/// CR, LF and invalid UTF-8 go through unchanged). A Redis error reply is returned as ``RedisReply/error(_:)``; a
/// failure of the connection itself is thrown as a ``RedisError`` and leaves the connection unusable.
///
/// Lifecycle (`State`):
/// ```
///   init ──▶ open ──(io, timeout, protocol error or EOF)──▶ broken ──(close)──▶ closed
///              └──────────────────────(close, deinit)──────────────────────────▶ closed
/// ```
/// In `broken` and `closed` every call throws ``RedisError/Kind/closed`` and ``isBroken`` is true: make a new
/// connection.
///
/// Connecting ignores SIGPIPE for the process when its disposition is still the default (hiredis 0.14 writes with
/// write(2), so a write to a server that went away would otherwise end the process instead of failing with EPIPE).
///
/// ## Thread safety
/// Not `Sendable`-shared: one thread at a time. A connection is owned by one thread or serial queue, which makes
/// every call; hand it to another owner only with a happens-before edge (a lock, a queue hop).
public final class RedisConnection {
    /// The server this connection talks to.
    public let endpoint: RedisEndpoint
    /// How long one command may wait for its reply (and for the socket to take its bytes), ms; 0 means no limit.
    public let commandTimeoutMs: Int
    var state: State

    enum State {
        /// Connected; the context is ours to free.
        case open(UnsafeMutablePointer<redisContext>)
        /// An I/O, timeout, protocol or EOF failure freed the context; the failure is kept for the message.
        case broken(RedisError)
        /// ``close()`` ran.
        case closed
    }

    /// Connects to `endpoint` and, when its database is not 0, selects it; on TCP, turns on keepalive (hiredis's
    /// `redisEnableKeepAlive`, 15 s).
    /// - Parameters:
    ///   - connectTimeoutMs: how long connecting may take, ms (0 or less: the operating system's limit).
    ///   - commandTimeoutMs: how long each command may wait for its reply, ms (0 or less: no limit). Past it the
    ///     command throws ``RedisError/Kind/timeout`` and the connection is broken.
    /// - Throws: ``RedisError`` of kind ``RedisError/Kind/connection`` (refused, no such socket, connect timeout,
    ///   unknown host, `SELECT` refused), or of the kinds of ``command(_:)-([[UInt8]])`` while selecting.
    public init(_ endpoint: RedisEndpoint, connectTimeoutMs: Int = 1000, commandTimeoutMs: Int = 2000) throws(RedisError) {
        Self.ignoreSIGPIPE
        self.endpoint = endpoint
        self.commandTimeoutMs = max(commandTimeoutMs, 0)
        let connected: UnsafeMutablePointer<redisContext>?
        switch endpoint.address {
        case .tcp(let host, let port):
            connected = connectTimeoutMs > 0
                ? redisConnectWithTimeout(host, Int32(clamping: port), Self.timeval(ms: connectTimeoutMs))
                : redisConnect(host, Int32(clamping: port))
        case .unix(let path):
            connected = connectTimeoutMs > 0
                ? redisConnectUnixWithTimeout(path, Self.timeval(ms: connectTimeoutMs)) : redisConnectUnix(path)
        }
        guard let context = connected else {
            throw RedisError(.connection, "connect to \(endpoint): hiredis could not allocate a context")
        }
        if context.pointee.err != 0 {
            let text = String(cString: chiredis_errstr(context))
            redisFree(context)
            throw RedisError(.connection, "connect to \(endpoint): \(text)")
        }
        if commandTimeoutMs > 0, redisSetTimeout(context, Self.timeval(ms: commandTimeoutMs)) != REDIS_OK {
            let text = String(cString: chiredis_errstr(context))
            redisFree(context)
            throw RedisError(.connection, "connect to \(endpoint): cannot set the command timeout: \(text)")
        }
        if case .tcp = endpoint.address, redisEnableKeepAlive(context) != REDIS_OK {
            let text = String(cString: chiredis_errstr(context))
            redisFree(context)
            throw RedisError(.connection, "connect to \(endpoint): cannot enable keepalive: \(text)")
        }
        state = .open(context)
        if endpoint.database != 0 {
            let reply = try command("SELECT", String(endpoint.database))
            if case .error(let text) = reply {
                close()
                throw RedisError(.connection, "SELECT \(endpoint.database) on \(endpoint): \(text)")
            }
        }
    }

    deinit { close() }

    /// Whether the connection is unusable: a failure broke it, or ``close()`` closed it. Make a new one.
    public var isBroken: Bool {
        if case .open = state { return false }
        return true
    }

    /// Whether the server has closed this idle connection (or sent something unasked): checked without blocking
    /// (poll(2), zero timeout) before reusing a connection that waited, so that a command is not sent into a socket
    /// whose server restarted meanwhile. True for a broken or closed connection.
    public var isClosedByServer: Bool {
        guard case .open(let context) = state else { return true }
        return chiredis_idle_socket_closed(context) == 1
    }

    /// Closes the socket and frees the context. Idempotent; `deinit` closes too.
    public func close() {
        if case .open(let context) = state { redisFree(context) }
        state = .closed
    }

    /// Runs once per process: see the type's documentation.
    private static let ignoreSIGPIPE: Void = chiredis_ignore_sigpipe_if_default()

    static func timeval(ms: Int) -> timeval {
        Glibc.timeval(tv_sec: ms / 1000, tv_usec: (ms % 1000) * 1000)
    }
}
