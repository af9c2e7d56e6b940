import UVLoop
import WebSocket

/// One stream subscription of a WebSocket connection: a store and a channel, with its place in the stream.
///
/// The single-store endpoint (`/stores/{name}/ws`) has one, without an id; the multiplexed endpoint (`/ws`) has one
/// per `subscribe`, and every message it sends carries `"sub":"<id>"`.
///
/// ## Thread safety
/// Loop-confined, like its session.
final class WebSocketSubscription: StreamSubscriber, @unchecked Sendable {
    unowned let session: WebSocketSession
    /// The session's connection, kept here so a delivery reads the session only once.
    let connection: TCPConnection
    let store: HostedStore
    let channel: StreamChannel
    /// The client's id for the subscription (multiplexed endpoint), or nil.
    let id: String?
    /// Touched on every delivery, on the loop thread only: no dynamic exclusivity check (issue 14, callgrind: the
    /// checks in `deliver` and `send` would cost about 310 instructions per delivery).
    @exclusivity(unchecked) var cursor = StreamCursor()
    /// Whether the session may still send data frames: true while it is `open`, cleared by the session when its
    /// machine leaves `open` (no data after a Close, RFC 6455 §5.5.1; ``WebSocketSession/stopStreams()``). Kept
    /// here so a delivery reads this object and the connection, not the session (issue 18: the `unowned` session
    /// costs a strong retain and a release per delivery, and one more object's cache lines).
    @exclusivity(unchecked) var isStreaming: Bool

    init(session: WebSocketSession, store: HostedStore, channel: StreamChannel, id: String?) {
        session.connection.loop.assertInLoop()
        self.session = session
        connection = session.connection
        self.store = store
        self.channel = channel
        self.id = id
        isStreaming = session.state == .open
    }

    /// Joins the store's stream and sends the first message (a snapshot, or a patch when resuming).
    func start(resume: StreamPosition?) {
        connection.loop.assertInLoop()
        let (first, version) = store.fanout.subscribe(self, from: resume)
        cursor.lastSent = StreamPosition(epoch: store.fanout.epoch, version: version)
        if let first { send(first) }
    }

    /// The asserts here read `connection.loop`, not this: the unowned `session` costs a retain and a release even in
    /// release builds, where the assert itself is gone (issue 14, callgrind: about 100 instructions per delivery).
    var loop: EventLoop { session.context.loop }

    /// Reads this object, the connection and the shared message; the session only when the subscription falls
    /// behind or the store was deleted.
    func deliver(_ message: StreamMessage) {
        connection.loop.assertInLoop()
        guard isStreaming else { return }
        switch cursor.decide(message, writePaused: connection.isWritePaused) {
        case .send: send(message)
        case .catchUp: catchUp()
        case .skip: if cursor.isBehind { noteBehind() }
        }
        if message.kind == .deleted { session.storeDeleted(self) }
    }

    func send(_ message: StreamMessage) {
        connection.loop.assertInLoop()
        if let id {
            Self.tagged(message.body, sub: id).write(to: connection)
        } else {
            message.writeWebSocketFrame(to: connection)
        }
        cursor.sent(message, writePaused: connection.isWritePaused)
        if cursor.isBehind { noteBehind() }
    }

    /// The subscription is behind: the session's lag clock starts unless another subscription started it.
    private func noteBehind() {
        let session = self.session
        if !session.hasBehindSubscription { session.fellBehind() }
    }

    /// Sends what brings this subscription from its last version to the newest (a patch when possible).
    func catchUp() {
        connection.loop.assertInLoop()
        let (message, version) = store.fanout.catchUp(channel, from: cursor.lastSent, countingOn: connection.loop)
        if let message { send(message) } else { cursor.lastSent?.version = version }
    }

    /// A fresh snapshot (the client asked to `resync`).
    func resync() {
        connection.loop.assertInLoop()
        let (message, _) = store.fanout.catchUp(channel, from: nil, countingOn: nil)
        if let message { send(message) }
    }

    /// The socket drained: catch up if this subscription was behind.
    func drained() {
        connection.loop.assertInLoop()
        guard cursor.isBehind else { return }
        cursor.isBehind = false
        catchUp()
    }

    func end() {
        connection.loop.assertInLoop()
        store.fanout.unsubscribe(self)
    }

    /// `{"sub":"<id>",…}`: the shared message with the subscription id spliced in, as a text frame (the message's
    /// bytes shared, not copied, when it is large).
    static func tagged(_ body: OutboundBuffer, sub: String) -> OutboundFrame {
        WebSocketFrames.text(body, prefix: Array("{\"sub\":\(JSONText.quoted(sub)),".utf8), from: 1)
    }
}
