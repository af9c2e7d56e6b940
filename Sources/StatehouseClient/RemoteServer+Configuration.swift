extension RemoteServer {
    /// How a ``RemoteServer`` connects and retries.
    public struct Configuration: Sendable {
        /// A bearer token for `auth` (docs/security.md), sent as `Authorization: Bearer <token>`; nil for none.
        public var token: String?
        /// An `Origin` field for the handshake when the server's `cors` list must see one; nil for none.
        public var origin: String?
        /// Reconnect delays. Default 100 ms doubling up to 5,000 ms, full jitter.
        public var backoff: Backoff
        /// How many actions may await their ack at once (queued offline or written), ≥ 1. Default 1,000; past it
        /// `send` throws ``ClientError/queueFull(limit:)``.
        public var maxQueuedActions: Int
        /// How long `send` waits for its ack, ms, counted from the action's first write (not while it waits offline;
        /// a `sendAndSettle` adds its own timeout, and an action written after a settled one waits at least as long as
        /// that one). Default 30,000; then it throws ``ClientError/timedOut(id:afterMs:)``.
        public var ackTimeoutMs: Int
        /// Connect and handshake timeout, keep-alive pings, the largest message (``WebSocketClient/Configuration``).
        public var transport: WebSocketClient.Configuration

        public init(
            token: String? = nil, origin: String? = nil, backoff: Backoff = Backoff(), maxQueuedActions: Int = 1_000,
            ackTimeoutMs: Int = 30_000, transport: WebSocketClient.Configuration = .init()
        ) {
            self.token = token
            self.origin = origin
            self.backoff = backoff
            self.maxQueuedActions = max(maxQueuedActions, 1)
            self.ackTimeoutMs = max(ackTimeoutMs, 1)
            self.transport = transport
        }
    }
}
