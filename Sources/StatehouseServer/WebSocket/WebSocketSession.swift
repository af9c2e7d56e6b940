import UVLoop
import WebSocket

/// One WebSocket connection: subscribed to one store (`/stores/{name}/ws`) or to any number of stores and
/// projections (`/ws`, with `subscribe`/`unsubscribe` messages).
///
/// A thin adapter: the RFC 6455 rules (frames, control frames, the closing handshake, failing on a protocol error,
/// ping/pong liveness) are the `WebSocketConnection` state machine's (module `WebSocket`, the same one
/// `statehouse-echo` runs for Autobahn). The session feeds it the socket's events, carries out its actions
/// (`+Messages`: writes, closes; `+Timers`: the keep-alive and close timers) and handles the messages it delivers
/// (`+Commands`: actions, subscriptions).
///
/// Lifecycle (the machine's ``WebSocketConnection/State``; ``state``):
/// ```
/// open ──peer Close──▶ (echo Close) closed
///   ├──protocol error──▶ (Close with 1002/1007/1009) closed
///   ├──fell behind maxLagSeconds──▶ (Close with 4008) closed
///   ├──no pong / peer EOF──▶ closed
///   └──goAway()/store deleted──▶ closeSent ──peer Close or 1 s──▶ closed
/// ```
/// Input is not read until the first message (snapshot, or resume patch) has been sent, so it always comes before
/// any ack. Actions are submitted to their store in the order received and answered in that order (``AnswerQueue``);
/// each ack follows the state message of its version. At most ``maxActionsInFlight`` actions await their answer;
/// past that, reading pauses (backpressure).
///
/// Slow consumers: while the connection is write-paused (more than `writeHighWaterBytes` unsent), a subscription is
/// *behind*: it queues nothing more and, when the connection is writable again, sends one message from the last
/// version it sent to the newest. Behind for `maxLagSeconds` (a timer, ``LagWatch``: no new message is needed), the
/// connection fails with 4008. While write-paused the session reads nothing either (a client that sends without
/// reading is slowed by TCP), and the keep-alive does not drop it for a missing pong (the machine is told the
/// transport is write-paused, see `+Timers`).
///
/// ## Thread safety
/// Loop-confined: created, called and called back on the loop thread only.
final class WebSocketSession: ServerSession, @unchecked Sendable {
    static let maxActionsInFlight = 256
    static let maxSubscriptions = 256
    /// How long our Close waits for the client's (RFC 6455 §7.1.2 leaves it to us), ms.
    static let closeTimeoutMs = 1000

    let connection: TCPConnection
    /// The connection's number in log lines (`conn=`), given to its HTTP session.
    let connectionID: UInt64
    let context: ServerContext
    /// The store of `/stores/{name}/ws`; nil on the multiplexed `/ws`.
    let home: HostedStore?
    /// What the connection's token may do (checked for every action and subscription).
    let access: Access
    /// The protocol: every RFC 6455 rule of this connection. Read by every fan-out delivery (`state`), on the loop
    /// thread only: no dynamic exclusivity check (callgrind, 100 subscribers: `swift_beginAccess` was 76 of ~460
    /// instructions per delivery, the whole cost of the state check; none of the machine's events re-enter it).
    @exclusivity(unchecked) var machine: WebSocketConnection
    /// By subscription id; the single-store endpoint's one subscription has the id "".
    var subscriptions: [String: WebSocketSubscription] = [:]
    /// The answers to `action` messages, sent in arrival order (+Actions).
    var answers = AnswerQueue()
    /// The `"wait":"settled"` actions not answered yet, by ticket (a shutdown answers them at once).
    var settleWaits: [UInt64: SettleWait] = [:]
    /// Set when a subscription falls behind: only then does a drained socket make the subscriptions catch up.
    var hasBehindSubscription = false
    /// How long the subscriptions have been behind (the 4008 rule).
    var lag = LagWatch()
    /// The machine's timers (created on first use).
    var closeTimer: LoopTimer?
    var keepAlive: LoopTimer?

    /// Where the connection is in its lifecycle (the machine's state).
    var state: WebSocketConnection.State { machine.state }

    init(connection: TCPConnection, connectionID: UInt64, context: ServerContext, home: HostedStore?, access: Access) {
        context.loop.assertInLoop()
        self.connection = connection
        self.connectionID = connectionID
        self.context = context
        self.home = home
        self.access = access
        let liveness = WebSocketConnection.Liveness(
            pingIntervalMs: context.timeouts.pingIntervalMs, pongTimeoutMs: context.timeouts.pongTimeoutMs)
        machine = WebSocketConnection(role: .server, configuration: WebSocketConnection.Configuration(
            maxMessageBytes: context.limits.maxMessageBytes, closeTimeoutMs: Self.closeTimeoutMs, liveness: liveness))
        connection.stopReading()
        connection.onRead = { [unowned self] bytes in received(bytes) }
        connection.onEnd = { [unowned self] _ in perform { $0.peerEnded(into: &$1) } }
        connection.onClosed = { [unowned self] in closed() }
        connection.onWritable = { [unowned self] in writable() }
    }

    /// The connection is writable again: read again, and let behind subscriptions catch up (which may put them
    /// behind again, restarting the lag clock).
    private func writable() {
        context.loop.assertInLoop()
        if state == .open { updateReading() }
        guard hasBehindSubscription else { return }
        hasBehindSubscription = false
        lag.stop()
        guard state == .open else { return }  // no data after our Close (RFC 6455 §5.5.1)
        for subscription in subscriptions.values { subscription.drained() }
    }

    /// A subscription fell behind: the lag clock starts (once for all of the connection's subscriptions).
    func fellBehind() {
        context.loop.assertInLoop()
        hasBehindSubscription = true
        lag.start(on: context.loop, seconds: context.streams.maxLagSeconds) { [unowned self] in
            lag.expired()
            guard hasBehindSubscription else { return }
            perform { $0.fail(WebSocketFailure(
                closeCode: WebSocketCloseCode(rawValue: 4008), reason: "client fell behind for too long; reconnect with since"), into: &$1) }
        }
    }

    /// Reads while open, under the in-flight action limit and not write-paused (backpressure both ways).
    func updateReading() {
        context.loop.assertInLoop()
        if answers.waiting < Self.maxActionsInFlight, !connection.isWritePaused {
            connection.startReading()
        } else {
            connection.stopReading()
        }
    }

    /// Joins `home`'s stream on `channel` (single-store endpoint), then reads `leftover` and the socket.
    func start(leftover: [UInt8], channel: StreamChannel?, resume: StreamPosition?) {
        context.loop.assertInLoop()
        if let home, let channel {
            let subscription = WebSocketSubscription(session: self, store: home, channel: channel, id: nil)
            subscriptions[""] = subscription
            subscription.start(resume: resume)
        }
        if !leftover.isEmpty { leftover.withUnsafeBytes { received($0) } }
        if state == .open {
            updateReading()
            let now = context.loop.now
            perform { $0.startLiveness(now: now, into: &$1) }
        }
    }

    /// A subscription's store was deleted: the single-store endpoint closes (1000); on `/ws` the subscription ends.
    func storeDeleted(_ subscription: WebSocketSubscription) {
        context.loop.assertInLoop()
        guard let id = subscription.id else {
            return perform { $0.close(code: .normalClosure, reason: "store deleted", into: &$1) }
        }
        subscriptions[id] = nil
        subscription.end()
    }

    /// The server shuts down: settled waits are answered with `shutting_down`, then the closing handshake with 1001
    /// (no effect once closing).
    func goAway() {
        context.loop.assertInLoop()
        cutSettleWaits()
        perform { $0.close(code: .goingAway, reason: "server shutting down", into: &$1) }
    }

    /// The socket is closed (by us or by the transport, e.g. a write stall): the machine is told, and its actions,
    /// all about a socket that is gone, are dropped.
    private func closed() {
        context.loop.assertInLoop()
        var ignored: [WebSocketConnection.Action] = []
        machine.peerEnded(into: &ignored)
        stopStreams()
        closeTimer?.close()
        closeTimer = nil
        keepAlive?.close()
        keepAlive = nil
        lag.close()
        for subscription in subscriptions.values { subscription.end() }
        subscriptions = [:]
        context.remove(self)
    }
}
