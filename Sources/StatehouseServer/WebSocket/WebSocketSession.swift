import UVLoop
import WebSocket

/// One WebSocket connection: subscribed to one store (`/stores/{name}/ws`) or to any number of stores and
/// projections (`/ws`, with `subscribe`/`unsubscribe` messages).
///
/// Lifecycle (explicit, see ``State``):
/// ```
/// joining ──first message sent──▶ open ──peer Close──▶ (echo Close) closed
///                                  ├──protocol error──▶ (Close with 1002/1007/1009) closed
///                                  └──goAway()/store deleted──▶ closing ──peer Close or 1 s──▶ closed
/// ```
/// Input is not read until the first message (snapshot, or resume patch) has been sent, so it always comes before
/// any ack. Actions are submitted to their store in the order received; each ack follows the state message of its
/// version. At most ``maxActionsInFlight`` actions await their ack; past that, reading pauses (backpressure).
///
/// Slow consumers: while the connection is write-paused (more than `writeHighWaterBytes` unsent), a subscription is
/// *behind*: it queues nothing more and, when the connection is writable again, sends one message from the last
/// version it sent to the newest. Behind for `maxLagSeconds` (a timer, ``LagWatch``: no new message is needed), the
/// connection fails with 4008. While write-paused the session reads nothing either (a client that sends without
/// reading is slowed by TCP), and the keep-alive does not drop it for a missing pong (see `+KeepAlive`).
///
/// ## Thread safety
/// Loop-confined: created, called and called back on the loop thread only.
final class WebSocketSession: ServerSession, @unchecked Sendable {
    enum State { case joining, open, closing, closed }

    static let maxActionsInFlight = 256
    static let maxSubscriptions = 256

    let connection: TCPConnection
    let context: ServerContext
    /// The store of `/stores/{name}/ws`; nil on the multiplexed `/ws`.
    let home: (any HostedStore)?
    /// What the connection's token may do (checked for every action and subscription).
    let access: Access
    var state: State = .joining
    var reader: WebSocketReader
    /// By subscription id; the single-store endpoint's one subscription has the id "".
    var subscriptions: [String: WebSocketSubscription] = [:]
    var actionsInFlight = 0
    /// Set when a subscription falls behind: only then does a drained socket make the subscriptions catch up.
    var hasBehindSubscription = false
    /// How long the subscriptions have been behind (the 4008 rule).
    var lag = LagWatch()
    var closeTimer: LoopTimer?
    var keepAlive: LoopTimer?
    var lastHeard = ContinuousClock.now
    var keepAlivePhase = KeepAlivePhase.listening

    init(connection: TCPConnection, context: ServerContext, home: (any HostedStore)?, access: Access) {
        self.connection = connection
        self.context = context
        self.home = home
        self.access = access
        reader = WebSocketReader(role: .server, maxMessageBytes: context.limits.maxMessageBytes)
        connection.stopReading()
        connection.onRead = { [unowned self] bytes in
            lastHeard = .now
            received(bytes)
        }
        connection.onEnd = { [unowned self] _ in self.connection.close() }
        connection.onClosed = { [unowned self] in closed() }
        connection.onWritable = { [unowned self] in writable() }
    }

    /// The connection is writable again: read again, and let behind subscriptions catch up (which may put them
    /// behind again, restarting the lag clock).
    private func writable() {
        if state == .open { updateReading() }
        guard hasBehindSubscription else { return }
        hasBehindSubscription = false
        lag.stop()
        for subscription in subscriptions.values { subscription.drained() }
    }

    /// A subscription fell behind: the lag clock starts (once for all of the connection's subscriptions).
    func fellBehind() {
        hasBehindSubscription = true
        lag.start(on: context.loop, seconds: context.streams.maxLagSeconds) { [unowned self] in
            lag.expired()
            guard hasBehindSubscription else { return }
            fail(WebSocketFailure(
                closeCode: WebSocketCloseCode(rawValue: 4008), reason: "client fell behind for too long; reconnect with since"))
        }
    }

    /// Reads while open, under the in-flight action limit and not write-paused (backpressure both ways).
    func updateReading() {
        if actionsInFlight < Self.maxActionsInFlight, !connection.isWritePaused {
            connection.startReading()
        } else {
            connection.stopReading()
        }
    }

    /// Joins `home`'s stream on `channel` (single-store endpoint), then reads `leftover` and the socket.
    func start(leftover: [UInt8], channel: StreamChannel?, resume: StreamPosition?) {
        state = .open
        if let home, let channel {
            let subscription = WebSocketSubscription(session: self, store: home, channel: channel, id: nil)
            subscriptions[""] = subscription
            subscription.start(resume: resume)
        }
        if !leftover.isEmpty { leftover.withUnsafeBytes { received($0) } }
        if state == .open {
            updateReading()
            startKeepAlive()
        }
    }

    /// A subscription's store was deleted: the single-store endpoint closes (1000); on `/ws` the subscription ends.
    func storeDeleted(_ subscription: WebSocketSubscription) {
        guard let id = subscription.id else { return startClosing(.normalClosure, reason: "store deleted") }
        subscriptions[id] = nil
        subscription.end()
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
        keepAlive?.close()
        keepAlive = nil
        lag.close()
        for subscription in subscriptions.values { subscription.end() }
        subscriptions = [:]
        context.remove(self)
    }
}
