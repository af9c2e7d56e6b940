import UVLoop
import WebSocket

/// One WebSocket connection subscribed to one store (RFC 6455 after the opening handshake).
///
/// Lifecycle (explicit, see ``State``):
/// ```
/// joining ──snapshot sent──▶ open ──peer Close──▶ (echo Close) closed
///    │                        ├──protocol error──▶ (Close with 1002/1007/1009) closed
///    └──────goAway()─────────┴──goAway()──▶ closing ──peer Close or 1 s──▶ closed
/// ```
/// Input is not read until the snapshot has been sent, so the snapshot is always the first message, before any ack.
/// Actions are submitted to the store in the order received; each ack follows the state message of its version.
/// At most ``maxActionsInFlight`` actions await their ack; past that, reading pauses (backpressure).
///
/// ## Thread safety
/// Loop-confined: created, called and called back on the loop thread only.
final class WebSocketSession: ServerSession, StateSubscriber, @unchecked Sendable {
    enum State { case joining, open, closing, closed }

    static let maxActionsInFlight = 256
    /// A subscriber whose unsent bytes exceed this is too slow to keep: closed with 1008.
    static let maxPendingWriteBytes = 16 << 20

    let connection: TCPConnection
    let store: any HostedStore
    let context: ServerContext
    var state: State = .joining
    var reader: WebSocketReader
    var pendingInput: [UInt8] = []
    var lastSentVersion: UInt64?
    var actionsInFlight = 0
    var closeTimer: LoopTimer?
    var joined = false

    init(connection: TCPConnection, store: any HostedStore, context: ServerContext) {
        self.connection = connection
        self.store = store
        self.context = context
        reader = WebSocketReader(role: .server, maxMessageBytes: context.limits.maxMessageBytes)
        connection.stopReading()
        connection.onRead = { [unowned self] bytes in received(bytes) }
        connection.onEnd = { [unowned self] _ in self.connection.close() }
        connection.onClosed = { [unowned self] in closed() }
    }

    /// Reserves a place in the store's fanout, reads the snapshot, then joins and starts reading.
    func start(leftover: [UInt8]) {
        pendingInput = leftover
        store.fanout.reserve()
        let loop = context.loop
        let store = self.store
        Task {
            let snapshot = await store.read()
            loop.execute { [self] in join(snapshot) }
        }
    }

    private func join(_ snapshot: StateReply) {
        guard state == .joining, connection.isOpen else {
            store.fanout.cancelReservation()
            return
        }
        state = .open
        joined = true
        store.fanout.join(self, snapshot: snapshot)
        let early = pendingInput
        pendingInput = []
        if !early.isEmpty { early.withUnsafeBytes { received($0) } }
        if state == .open { connection.startReading() }
    }

    func deliver(version: UInt64, frame: OutboundBuffer) {
        guard state == .open, connection.isOpen else { return }
        if let last = lastSentVersion, version <= last { return }
        lastSentVersion = version
        connection.write(frame)
        if connection.pendingWriteBytes > Self.maxPendingWriteBytes {
            fail(WebSocketFailure(closeCode: .policyViolation, reason: "client too slow to read its state stream"))
        }
    }

    func deliverEvent(frame: OutboundBuffer) {
        guard state == .open, connection.isOpen else { return }
        connection.write(frame)
    }

    func goAway() {
        switch state {
        case .joining, .open: startClosing(.goingAway, reason: "server shutting down")
        case .closing, .closed: break
        }
    }

    private func closed() {
        state = .closed
        closeTimer?.close()
        closeTimer = nil
        if joined { store.fanout.leave(self) }
        context.remove(self)
    }
}
