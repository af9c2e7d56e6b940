import HTTP1
import UVLoop

/// One Server-Sent Events stream of a store (`GET /stores/{name}/events`, `text/event-stream`).
///
/// The response is chunked and never ends by itself: each message is an event with `id: <epoch>-<version>` (state
/// and patch), `event: state|patch|event|deleted` and `data: <json>`. A comment line every `sseHeartbeatMs` keeps
/// proxies from timing the stream out (none is queued while the connection is write-paused). The same slow-consumer
/// rule as WebSocket applies; a subscriber behind for `streams.maxLagSeconds` is disconnected by its ``LagWatch``
/// (it resumes with `Last-Event-ID`).
///
/// ## Thread safety
/// Loop-confined: created, called and called back on the loop thread only.
final class SSESession: ServerSession, StreamSubscriber, @unchecked Sendable {
    let connection: TCPConnection
    /// The connection's number in log lines (`conn=`), given to its HTTP session.
    let connectionID: UInt64
    let store: HostedStore
    let context: ServerContext
    let channel: StreamChannel
    var cursor = StreamCursor()
    var heartbeat: LoopTimer?
    var lag = LagWatch()
    var isOpen = true

    init(
        connection: TCPConnection, connectionID: UInt64, store: HostedStore, context: ServerContext, channel: StreamChannel
    ) {
        context.loop.assertInLoop()
        self.connection = connection
        self.connectionID = connectionID
        self.store = store
        self.context = context
        self.channel = channel
        // Input after the request is ignored, but EOF ends the stream.
        connection.onRead = { _ in }
        connection.onEnd = { [unowned self] _ in self.connection.close() }
        connection.onClosed = { [unowned self] in closed() }
        connection.onWritable = { [unowned self] in drained() }
    }

    /// Sends the response head and the first message, then streams. `fields` go into the head too: the CORS
    /// fields of an allowed `Origin` (without them a browser's `EventSource` from another origin fails).
    func start(resume: StreamPosition?, fields: [HTTPField] = []) {
        context.loop.assertInLoop()
        connection.write(ServerSentEvents.responseHead(fields: fields, closing: false))
        let (first, version) = store.fanout.subscribe(self, from: resume)
        cursor.lastSent = StreamPosition(epoch: store.fanout.epoch, version: version)
        if let first { send(first) }
        connection.startReading()
        let timer = LoopTimer(loop: context.loop)
        heartbeat = timer
        let interval = UInt64(context.streams.sseHeartbeatMs)
        timer.start(delayMs: interval, repeatMs: interval) { [weak self] in
            guard let self, !connection.isWritePaused else { return }
            connection.write(ServerSentEvents.comment("heartbeat"))
        }
    }

    var loop: EventLoop { context.loop }

    func deliver(_ message: StreamMessage) {
        context.loop.assertInLoop()
        guard isOpen else { return }
        switch cursor.decide(message, writePaused: connection.isWritePaused) {
        case .send: send(message)
        case .catchUp: catchUp()
        case .skip: noteBehind()
        }
        if message.kind == .deleted { finish() }
    }

    private func send(_ message: StreamMessage) {
        message.serverSentEvent.write(to: connection)
        cursor.sent(message, writePaused: connection.isWritePaused)
        noteBehind()
    }

    /// Starts the lag clock when the subscriber has fallen behind.
    private func noteBehind() {
        guard cursor.isBehind, !lag.isRunning, isOpen else { return }
        lag.start(on: context.loop, seconds: context.streams.maxLagSeconds) { [unowned self] in
            lag.expired()
            guard isOpen, cursor.isBehind else { return }
            context.logger.info(
                "sse \(store.name) dropped: behind for more than streams.maxLagSeconds (\(context.streams.maxLagSeconds) s)",
                metadata: connectionMetadata(store: store.name))
            connection.close()
        }
    }

    private func catchUp() {
        let (message, version) = store.fanout.catchUp(channel, from: cursor.lastSent, countingOn: connection.loop)
        if let message { send(message) } else { cursor.lastSent?.version = version }
    }

    private func drained() {
        context.loop.assertInLoop()
        guard cursor.isBehind, isOpen else { return }
        cursor.isBehind = false
        lag.stop()
        catchUp()
    }

    /// Ends the chunked body (`0 CRLF CRLF`) and closes.
    private func finish() {
        guard isOpen else { return }
        isOpen = false
        heartbeat?.close()
        connection.write(Array("0\r\n\r\n".utf8))
        connection.closeAfterWrites()
    }

    func goAway() {
        context.loop.assertInLoop()
        finish()
    }

    private func closed() {
        context.loop.assertInLoop()
        isOpen = false
        heartbeat?.close()
        heartbeat = nil
        lag.close()
        store.fanout.unsubscribe(self)
        context.remove(self)
    }
}
