import UVLoop
import WebSocket

/// One WebSocket connection subscribed to one store (RFC 6455 after the opening handshake).
///
/// Lifecycle (explicit, see ``State``):
/// ```
/// joining ──first message sent──▶ open ──peer Close──▶ (echo Close) closed
///                                  ├──protocol error──▶ (Close with 1002/1007/1009) closed
///                                  └──goAway()/store deleted──▶ closing ──peer Close or 1 s──▶ closed
/// ```
/// Input is not read until the first message (snapshot, or resume patch) has been sent, so it always comes before
/// any ack. Actions are submitted to the store in the order received; each ack follows the state message of its
/// version. At most ``maxActionsInFlight`` actions await their ack; past that, reading pauses (backpressure).
///
/// Slow consumers: once more than `writeHighWaterBytes` wait unsent, the session is *behind*: it queues nothing more
/// and, when the socket drains, sends one message from the last version it sent to the newest. Behind for longer than
/// `maxLagSeconds`, it is closed with 4008.
///
/// ## Thread safety
/// Loop-confined: created, called and called back on the loop thread only.
final class WebSocketSession: ServerSession, StreamSubscriber, @unchecked Sendable {
    enum State { case joining, open, closing, closed }

    static let maxActionsInFlight = 256

    let connection: TCPConnection
    let store: any HostedStore
    let context: ServerContext
    let channel: StreamChannel
    var state: State = .joining
    var reader: WebSocketReader
    var cursor = StreamCursor()
    var actionsInFlight = 0
    var closeTimer: LoopTimer?
    var joined = false

    init(connection: TCPConnection, store: any HostedStore, context: ServerContext, channel: StreamChannel) {
        self.connection = connection
        self.store = store
        self.context = context
        self.channel = channel
        reader = WebSocketReader(role: .server, maxMessageBytes: context.limits.maxMessageBytes)
        connection.stopReading()
        connection.onRead = { [unowned self] bytes in received(bytes) }
        connection.onEnd = { [unowned self] _ in self.connection.close() }
        connection.onClosed = { [unowned self] in closed() }
        connection.onWritable = { [unowned self] in drained() }
    }

    /// Joins the store's stream (first message: snapshot, or a patch from `resume`), then reads `leftover` and the
    /// socket.
    func start(leftover: [UInt8], resume: StreamPosition?) {
        let (first, version) = store.fanout.subscribe(self, from: resume)
        joined = true
        state = .open
        cursor.lastSent = StreamPosition(epoch: store.fanout.epoch, version: version)
        if let first { send(first) }
        if !leftover.isEmpty { leftover.withUnsafeBytes { received($0) } }
        if state == .open { connection.startReading() }
    }

    func deliver(_ message: StreamMessage) {
        guard state == .open, connection.isOpen else { return }
        switch cursor.decide(message, maxLag: .seconds(context.streams.maxLagSeconds)) {
        case .send: send(message)
        case .catchUp: catchUp()
        case .skip: break
        case .tooSlow:
            fail(WebSocketFailure(
                closeCode: WebSocketCloseCode(rawValue: 4008), reason: "client fell behind for too long; reconnect with since"))
        }
        if message.kind == .deleted { startClosing(.normalClosure, reason: "store deleted") }
    }

    func send(_ message: StreamMessage) {
        connection.write(message.webSocketFrame)
        cursor.sent(message, pendingBytes: connection.pendingWriteBytes, highWater: context.streams.writeHighWaterBytes)
    }

    /// Sends what brings this subscriber from its last version to the newest (a patch when possible).
    func catchUp() {
        let (message, version) = store.fanout.catchUp(channel, from: cursor.lastSent)
        if let message { send(message) } else { cursor.lastSent?.version = version }
    }

    /// The write queue emptied: a subscriber that was behind catches up in one message.
    private func drained() {
        guard cursor.behindSince != nil, state == .open else { return }
        cursor.behindSince = nil
        catchUp()
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
        if joined { store.fanout.unsubscribe(self) }
        context.remove(self)
    }
}
