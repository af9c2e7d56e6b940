extension WebSocketConnection {
    /// The settings of one connection.
    public struct Configuration: Sendable, Equatable {
        /// The largest message accepted (all fragments together), in bytes, ≥ 0; larger ones fail with 1009 (§7.4.1).
        public var maxMessageBytes: Int
        /// How long our Close waits for the peer's (and a client for the server's EOF), ms ≥ 1. Default 1000.
        public var closeTimeoutMs: Int
        /// Ping/pong keep-alive, or nil for none.
        public var liveness: Liveness?

        /// - Parameters:
        ///   - maxMessageBytes: bytes, ≥ 0.
        ///   - closeTimeoutMs: ms, at least 1 (smaller values count as 1).
        ///   - liveness: nil for no keep-alive pings.
        public init(maxMessageBytes: Int, closeTimeoutMs: Int = 1000, liveness: Liveness? = nil) {
            precondition(maxMessageBytes >= 0, "maxMessageBytes must not be negative")
            self.maxMessageBytes = maxMessageBytes
            self.closeTimeoutMs = max(closeTimeoutMs, 1)
            self.liveness = liveness
        }
    }

    /// Keep-alive settings (§5.5.2–§5.5.3).
    public struct Liveness: Sendable, Equatable {
        /// A connection that sent nothing for this long is pinged, ms (≥ 1).
        public var pingIntervalMs: Int
        /// It is dropped when it still sent nothing this long after the ping was sent, ms (≥ 1).
        public var pongTimeoutMs: Int
        /// The Ping's application data, 0–125 bytes.
        public var pingPayload: [UInt8]

        /// - Parameters:
        ///   - pingIntervalMs: ms; values below 1 count as 1.
        ///   - pongTimeoutMs: ms; values below 1 count as 1.
        ///   - pingPayload: 0–125 bytes (§5.5).
        public init(pingIntervalMs: Int, pongTimeoutMs: Int, pingPayload: [UInt8] = Array("statehouse".utf8)) {
            precondition(pingPayload.count <= 125, "a Ping carries at most 125 bytes")
            self.pingIntervalMs = max(pingIntervalMs, 1)
            self.pongTimeoutMs = max(pongTimeoutMs, 1)
            self.pingPayload = pingPayload
        }
    }

    /// A complete data message from the peer (§5.6), its fragments reassembled.
    public enum Message: Sendable, Equatable {
        /// A text message: its bytes, checked to be valid UTF-8 (§8.1).
        case text([UInt8])
        /// A binary message.
        case binary([UInt8])
    }

    /// The kind of a data message we send (§5.6).
    public enum DataKind: Sendable, Equatable, CaseIterable {
        /// Opcode 0x1; the payload must be UTF-8 (not checked here).
        case text
        /// Opcode 0x2.
        case binary

        var opcode: WebSocketOpcode { self == .text ? .text : .binary }
    }

    /// The timers the machine asks its adapter to run (one of each at most).
    public enum Timer: Sendable, Equatable, CaseIterable {
        /// Liveness: the next check for silence or for the pong.
        case keepAlive
        /// The closing handshake: how long our Close (or a client's wait for EOF) may take.
        case close
    }

    /// Why the machine asks to close the socket (for the adapter's logs; the action is the same).
    public enum CloseCause: Sendable, Equatable {
        /// The peer sent Close (its code, nil when it had none; §7.1.5).
        case peerClosed(code: UInt16?)
        /// The connection was failed (§7.1.7): by a protocol error of the peer, or by the app.
        case failed(WebSocketFailure)
        /// The peer did not answer our Close (or, for a client, end TCP) within the close timeout.
        case closeTimedOut
        /// Liveness: no sign of life within `pongTimeoutMs` after a ping was sent.
        case noPong
        /// The peer ended TCP (or the socket failed).
        case peerEnded
    }

    /// What the adapter must do, in order.
    public enum Action: Sendable, Equatable {
        /// Send these bytes (one whole frame).
        case write([UInt8])
        /// Hand this message to the app (only while `open`).
        case deliver(Message)
        /// Read the socket even if the app's backpressure paused it: the peer's Close is awaited.
        case resumeReading
        /// Start (or restart) this timer to fire after `milliseconds` (≥ 1); when it fires, call ``timerFired(_:_:into:)``.
        case armTimer(Timer, milliseconds: Int)
        /// Stop this timer if it runs.
        case cancelTimer(Timer)
        /// Close the socket: after the writes queued so far have been sent (then FIN), or at once. The machine is
        /// `closed` now; nothing more will be written.
        case close(afterWrites: Bool, cause: CloseCause)
    }

    /// What the transport knows when the keep-alive timer fires (``timerFired(_:_:into:)``).
    public struct TransportStatus: Sendable, Equatable {
        /// Monotonic time, ms (the same clock as every `now` given to the machine).
        public var now: UInt64
        /// The stream offset of the end of everything queued for writing so far, bytes (a Ping sent now ends at
        /// this plus its frame length).
        public var acceptedBytes: UInt64
        /// Whether every byte up to ``WebSocketConnection/awaitedPingEnd`` has left for the peer (true when no
        /// ping is awaited).
        public var pingIsSent: Bool
        /// Whether the transport is write-paused (too much unsent): it reads nothing then, so a pong could not be heard.
        public var isWritePaused: Bool

        /// - Parameters: see the properties.
        public init(now: UInt64, acceptedBytes: UInt64 = 0, pingIsSent: Bool = true, isWritePaused: Bool = false) {
            self.now = now
            self.acceptedBytes = acceptedBytes
            self.pingIsSent = pingIsSent
            self.isWritePaused = isWritePaused
        }
    }

    /// The peer's Close frame (§5.5.1, §7.1.5–§7.1.6): its status code (nil when it carried none) and reason.
    public struct ReceivedClose: Sendable, Equatable {
        /// The close code, nil for a Close without a body (the connection close code is then 1005, §7.1.5).
        public var code: UInt16?
        /// The close reason, UTF-8 (checked), may be empty.
        public var reason: String

        public init(code: UInt16?, reason: String) {
            self.code = code
            self.reason = reason
        }
    }

    /// Where a client's masking keys come from (§5.3; a server sends unmasked frames and uses none).
    public enum MaskingKeys: Sendable, Equatable {
        /// A fresh key from the system's random source for every frame (what §5.3 asks for).
        case random
        /// The same key for every frame: for tests that compare bytes. Never use it on a real connection.
        case fixed(UInt8, UInt8, UInt8, UInt8)
    }
}
