import JSON
import Locking
import UVLoop

/// Receives what one subscription of a ``ClientConnection`` reports. Called on the connection's loop thread, in order.
protocol SubscriptionSink: AnyObject, Sendable {
    /// A new state (or projection) at `version` of `epoch`; `patch` when it came as a patch.
    func deliver(epoch: String, version: UInt64, state: JSONValue, patch: [JSONPatchOperation]?)
    /// An event the reducer emitted.
    func deliver(event: JSONValue)
    /// The subscription ended for good.
    func end(_ error: ClientError)
    /// The server refused the connection (a 4xx but 408 and 429): a wait for the first snapshot fails with `error`; the
    /// subscription stays.
    func refused(_ error: ClientError)
}

/// The adapter between a ``ClientSession`` and the world: a ``WebSocketClient`` to `/ws`, the backoff timer, the ack
/// deadlines, and the callbacks of stores and senders. It carries out the session's outputs in order.
///
/// Transports come and go (one per connection attempt); a transport's callbacks are ignored once it is no longer the
/// current one, so an old connection's late end cannot disturb a new one.
///
/// Lifecycle (``Lifecycle``): `running` ──``close(finished:)``──▶ `closing` (it holds itself, so a `RemoteServer`
/// dropped without `close()` still sees its transport end and its loop stop) ──transport gone──▶ `finished` (the
/// `finished` callbacks run once).
///
/// ## Thread safety
/// Loop-confined: created, used and ended on `loop`'s thread only (``RemoteServer`` reaches it with
/// `loop.execute`).
final class ClientConnection: @unchecked Sendable {
    let loop: EventLoop
    let endpoint: ServerEndpoint
    let configuration: RemoteServer.Configuration
    let statusBoard: StatusBoard
    var session: ClientSession
    var transport: WebSocketClient?
    var retryTimer: LoopTimer?
    /// Ack deadlines by sequence number (loop clock, ms; and the ms the deadline allowed), swept by one timer.
    var ackDeadlines: [UInt64: (at: UInt64, allowedMs: Int)] = [:]
    var ackSweep: LoopTimer?
    var completions: [UInt64: (Result<Ack, ClientError>) -> Void] = [:]
    var sinks: [Int: any SubscriptionSink] = [:]
    var keys = IdempotencyKeys()
    /// Called once when the session is closed and its transport gone.
    var onFinished: [() -> Void] = []
    var lifecycle = Lifecycle.running

    enum Lifecycle {
        case running
        /// `close(finished:)` was called; the connection keeps itself alive until its transport is gone.
        case closing(ClientConnection)
        case finished
    }

    init(loop: EventLoop, endpoint: ServerEndpoint, configuration: RemoteServer.Configuration, statusBoard: StatusBoard) {
        self.loop = loop
        self.endpoint = endpoint
        self.configuration = configuration
        self.statusBoard = statusBoard
        session = ClientSession(maxQueuedActions: configuration.maxQueuedActions, backoff: configuration.backoff)
    }

    /// Connects for the first time.
    func start() {
        loop.assertInLoop()
        var outputs: [ClientSession.Output] = []
        session.start(into: &outputs)
        run(outputs)
    }

    /// Watches `store`; returns the subscription's key.
    func subscribe(store: String, path: String?, sink: any SubscriptionSink) -> Int {
        loop.assertInLoop()
        var outputs: [ClientSession.Output] = []
        let key = session.subscribe(store: store, path: path, into: &outputs)
        if session.phase == .closed {
            sink.end(.closed)
        } else {
            sinks[key] = sink
        }
        run(outputs)
        return key
    }

    func unsubscribe(key: Int) {
        loop.assertInLoop()
        sinks[key] = nil
        var outputs: [ClientSession.Output] = []
        session.unsubscribe(key: key, into: &outputs)
        run(outputs)
    }

    /// Sends an action; `completion` runs on the loop thread with its ack or error. `id` nil: a fresh key.
    func send(
        store: String, id: String?, body: [UInt8], settleTimeoutMs: Int?,
        completion: @escaping (Result<Ack, ClientError>) -> Void
    ) {
        loop.assertInLoop()
        let id = id ?? keys.next()
        var outputs: [ClientSession.Output] = []
        let seq = session.send(store: store, id: id, body: body, settleTimeoutMs: settleTimeoutMs, into: &outputs)
        completions[seq] = completion
        run(outputs)
    }

    /// Ends everything; `finished` runs once the transport is gone.
    func close(finished: @escaping () -> Void) {
        loop.assertInLoop()
        onFinished.append(finished)
        if case .running = lifecycle { lifecycle = .closing(self) }
        var outputs: [ClientSession.Output] = []
        session.close(into: &outputs)
        run(outputs)
        retryTimer?.close()
        retryTimer = nil
        ackSweep?.close()
        ackSweep = nil
        finishIfDone()
    }

    func finishIfDone() {
        guard case .closing = lifecycle, transport == nil else { return }
        lifecycle = .finished
        let callbacks = onFinished
        onFinished.removeAll()
        for callback in callbacks { callback() }
    }
}
