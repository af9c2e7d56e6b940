extension WebSocketClient {
    /// The settings of one client WebSocket.
    public struct Configuration: Sendable, Equatable {
        /// How long the TCP connect and the opening handshake may take together, ms (≥ 1). Default 5,000.
        public var connectTimeoutMs: Int
        /// The largest message accepted from the server, bytes; larger ones fail the connection with 1009 (RFC 6455
        /// §7.4.1). Default 16 MiB (16,777,216).
        public var maxMessageBytes: Int
        /// Ping the server after this long without input, ms; nil: no pings (RFC 6455 §5.5.2). Default 15,000.
        public var pingIntervalMs: Int?
        /// Give up when nothing arrives this long after a ping was sent, ms (≥ 1). Default 10,000.
        public var pongTimeoutMs: Int
        /// How long our Close waits for the server's Close and its end of TCP, ms (≥ 1; RFC 6455 §7.1.1). Default 1,000.
        public var closeTimeoutMs: Int
        /// Give up when bytes are waiting to be written and none reached the server for this long, ms; 0: never.
        /// Default 10,000.
        public var writeStallMs: Int

        /// - Parameters: see the properties (all in ms or bytes); values below their minimum count as the minimum.
        public init(
            connectTimeoutMs: Int = 5_000, maxMessageBytes: Int = 16 << 20, pingIntervalMs: Int? = 15_000,
            pongTimeoutMs: Int = 10_000, closeTimeoutMs: Int = 1_000, writeStallMs: Int = 10_000
        ) {
            self.connectTimeoutMs = max(connectTimeoutMs, 1)
            self.maxMessageBytes = max(maxMessageBytes, 0)
            self.pingIntervalMs = pingIntervalMs.map { max($0, 1) }
            self.pongTimeoutMs = max(pongTimeoutMs, 1)
            self.closeTimeoutMs = max(closeTimeoutMs, 1)
            self.writeStallMs = max(writeStallMs, 0)
        }
    }

    /// How a client WebSocket ended (``WebSocketClient/onEnd``, called once).
    public enum Ending: Sendable, Equatable {
        /// The server answered the handshake with a non-101 status; `body` is its body (a JSON error from Statehouse:
        /// `{"error":{"code":…,"message":…}}`), at most 64 KiB.
        case refused(status: Int, body: [UInt8])
        /// The closing handshake happened (either side began it); the peer's close code (nil: its Close had none)
        /// and reason (RFC 6455 §7.1.5–§7.1.6).
        case closed(code: UInt16?, reason: String)
        /// Anything else: connect failed or timed out, EOF without a Close, protocol error, no pong, write stall,
        /// ``WebSocketClient/abort()``. A sentence for people.
        case failed(String)
    }

    /// Where the client is in its lifecycle (see the diagram on ``WebSocketClient``).
    enum Phase: Equatable {
        /// Made, not started.
        case idle
        /// The TCP connect runs (host name resolved, each address tried).
        case connecting
        /// The request is sent; the server's answer is read.
        case handshaking
        /// RFC 6455 messages flow (the machine is `open`).
        case open
        /// The end is under way: our Close awaits the server's, the server's Close was echoed, or TCP is closing.
        case closing
        /// TCP is closed and ``WebSocketClient/onEnd`` was called.
        case closed
    }
}
