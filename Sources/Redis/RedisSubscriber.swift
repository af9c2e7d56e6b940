internal import CHiredis
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// Pub/sub on its own connection and its own thread (RESP2: a subscribed connection takes no other command).
/// Reconnects with backoff (100 ms doubling to 1 s) after the connection drops, subscribes again to everything
/// it had, and reports up/down so the user can backfill what it missed.
///
/// Events, on the subscriber's thread, in order:
/// - ``Event/connected``: connected and subscribed to every channel given so far (messages that arrive before the
///   last confirmation are held and handed over right after this event).
/// - ``Event/message(channel:payload:)``: a `PUBLISH` to a channel currently subscribed (after
///   ``unsubscribe(_:)`` returns, no message of that channel is handed over).
/// - ``Event/disconnected(_:)``: the connection dropped (or the first attempt failed); sent once per outage, never
///   twice in a row. Messages published until the next ``Event/connected`` are lost: backfill then.
///
/// Lifecycle (`Phase`, the public side):
/// ```
///   created ──start──▶ running ──stop──▶ stopping ──(thread joined)──▶ stopped
///      └────────────────────stop──────────────────────────────────────────▲
/// ```
/// The thread (`redis-sub`) inside `running`:
/// ```
///   connecting ──▶ subscribing ──(all confirmed: connected)──▶ up ──(EOF, error: disconnected)──▶ waiting
///        ▲  └──(connect failed: disconnected)──▶ waiting ◀──────────────────────────────────────────┘
///        └─────────────────(backoff: 100, 200, 400, 800, 1000, 1000 ... ms; reset once up)──────────┘
/// ```
/// ``stop()`` wakes the thread from any of these (a self-pipe beside the socket in poll(2)); connecting itself is
/// bounded by a 500 ms connect timeout.
///
/// ## Thread safety
/// Sendable; handlers run on its thread, in order. Every method may be called from any thread. The shared part
/// (phase, channels, queued requests) is behind a `Locked`; the connection is confined to the subscriber's thread.
/// The thread holds the subscriber until it ends: call ``stop()``.
public final class RedisSubscriber: Sendable {
    /// What the handler is told.
    public enum Event: Sendable, Equatable {
        /// A message published to `channel` (both as the publisher sent them).
        case message(channel: [UInt8], payload: [UInt8])
        /// Connected and subscribed to the channels given so far; after a ``disconnected(_:)``, the time to backfill.
        case connected
        /// The connection dropped or could not be made; the subscriber retries with backoff.
        case disconnected(RedisError)
    }

    /// The server.
    public let endpoint: RedisEndpoint
    /// Given to Redis with `CLIENT SETNAME` (spaces and control characters become `_`), so `CLIENT LIST` shows it.
    public let name: String
    /// The name of the subscriber's thread, as the kernel shows it.
    public static let threadName = "redis-sub"
    /// How long one connection attempt may take, ms.
    static let connectTimeoutMs = 500
    /// The first and the largest wait between connection attempts, ms.
    static let backoffMs = (first: 100, limit: 1000)

    let handler: @Sendable (Event) -> Void
    let shared = Locked(Shared())
    let wakePipe = WakePipe()

    /// The part other threads touch.
    struct Shared: Sendable {
        var phase: Phase = .created
        var thread: pthread_t?
        /// Set when ``stop()`` ran on the subscriber's own thread (from the handler): it then detaches itself.
        var stoppedFromOwnThread = false
        /// Every channel subscribed now (what a reconnection subscribes to).
        var channels: Set<[UInt8]> = []
        /// Changes made since the thread last looked, to send on the current connection in order.
        var requests: [Request] = []
    }

    enum Phase: Sendable { case created, running, stopping, stopped }

    enum Request: Sendable {
        case subscribe([[UInt8]])
        case unsubscribe([[UInt8]])
    }

    /// A subscriber to `endpoint`; nothing happens until ``start(channels:)``.
    /// - Parameters:
    ///   - name: the connection's name in Redis (`CLIENT SETNAME`).
    ///   - handler: called on the subscriber's thread with each ``Event``, one at a time; keep it short (messages
    ///     wait in the socket meanwhile).
    public init(_ endpoint: RedisEndpoint, name: String, handler: @escaping @Sendable (Event) -> Void) {
        self.endpoint = endpoint
        self.name = name
        self.handler = handler
    }

    deinit { wakePipe.close() }

    /// Starts the thread; `connected` comes once subscribed to the channels given so far.
    ///
    /// `channels` joins those given to ``subscribe(_:)`` before. A second call, or one after ``stop()``, does nothing.
    public func start(channels: [[UInt8]]) {
        shared.withLock { shared in
            shared.channels.formUnion(channels)
            guard shared.phase == .created else { return }
            shared.phase = .running
            // Under the lock, so `running` always has its thread (``stop()`` joins it); the thread's first step
            // waits for the lock, so it cannot look at the state before this.
            shared.thread = Self.spawn { [self] in run() }
        }
    }

    /// Subscribes to `channels` (thread-safe, any time; sent on the subscriber's connection, and again after each
    /// reconnection). Channels already subscribed are sent again, which Redis confirms without change.
    public func subscribe(_ channels: [[UInt8]]) {
        guard !channels.isEmpty else { return }
        shared.withLock { shared in
            shared.channels.formUnion(channels)
            shared.requests.append(.subscribe(channels))
        }
        wakePipe.wake()
    }

    /// Unsubscribes from `channels` (thread-safe, any time). Once it returns, no message of those channels is handed
    /// to the handler. An empty list does nothing (it does not mean "all", as it would for Redis).
    public func unsubscribe(_ channels: [[UInt8]]) {
        guard !channels.isEmpty else { return }
        shared.withLock { shared in
            shared.channels.subtract(channels)
            shared.requests.append(.unsubscribe(channels))
        }
        wakePipe.wake()
    }

    /// Unblocks the thread (a wake-up byte on the self-pipe it polls beside the socket), joins it, and closes the
    /// connection; no handler runs after stop returns. Idempotent.
    ///
    /// Called from the handler (the subscriber's own thread) it cannot join: the thread ends when the handler
    /// returns, and no handler runs after that one. A second concurrent call returns once the first has joined.
    public func stop() {
        let (thread, joins) = shared.withLock { shared -> (pthread_t?, Bool) in
            switch shared.phase {
            case .created:
                shared.phase = .stopped
                return (nil, false)
            case .running:
                shared.phase = .stopping
                if let thread = shared.thread, pthread_equal(thread, pthread_self()) != 0 {
                    shared.stoppedFromOwnThread = true
                    return (nil, false)
                }
                return (shared.thread, true)
            case .stopping, .stopped:
                return (nil, false)
            }
        }
        wakePipe.wake()
        if joins, let thread {
            pthread_join(thread, nil)
            shared.withLock { $0.phase = .stopped }
            return
        }
        // Another caller is joining, or the handler stopped the subscriber (its thread then ends on its own).
        while shared.withLock({ $0.phase == .stopping && !$0.stoppedFromOwnThread }) {
            var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            nanosleep(&pause, nil)
        }
    }

    /// Whether the thread is told to end.
    var isStopping: Bool { shared.withLock { $0.phase != .running } }

    /// Starts a pthread running `body`; traps when the system cannot make one.
    private static func spawn(_ body: @escaping @Sendable () -> Void) -> pthread_t {
        final class Start: Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let start = Unmanaged.passRetained(Start(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, start)
        precondition(status == 0, "pthread_create failed: errno \(status)")
        return thread
    }
}
