import HTTP1
import UVLoop

/// One HTTP/1.1 connection: parses requests, answers them one at a time in order, and hands the socket to a
/// ``WebSocketSession`` on upgrade.
///
/// Pipelined requests are parsed as they arrive and queued; each is answered only after the one before it, so
/// responses leave in request order and actions from one connection are reduced in the order sent. Reading pauses
/// while the queue holds more than ``maxQueuedRequests``.
///
/// Write backpressure: while the connection is write-paused (more than `streams.writeHighWaterBytes` unsent, see
/// `TCPConnection`), the session answers no queued request and reads nothing; it resumes both once the unsent bytes
/// fell to half of that. A peer that reads nothing for `timeouts.writeStallMs` is closed by the connection itself.
///
/// Lifecycle: `idle` ⇄ `busy` (a response is being prepared) → `closing` (after `Connection: close`, an error, or
/// shutdown) or `upgraded` (the socket belongs to a WebSocket session now).
///
/// ## Thread safety
/// Loop-confined: created, called and called back on the loop thread only.
final class HTTPSession: ServerSession, @unchecked Sendable {
    enum State { case idle, busy, closing, upgraded }

    static let maxQueuedRequests = 16

    // The variables are touched on the loop thread only (see Thread safety), several times per request: no dynamic
    // exclusivity checks.

    let connection: TCPConnection
    let context: ServerContext
    let parser: HTTPRequestParser
    @exclusivity(unchecked) var state: State = .idle
    /// Parsed events not yet handled: those from `queueStart` on.
    @exclusivity(unchecked) var queue: [HTTPParseEvent] = []
    @exclusivity(unchecked) var queueStart = 0
    @exclusivity(unchecked) var peerClosed = false
    /// `METHOD path` of the request being answered, for the debug log (never the query: it may hold a token).
    @exclusivity(unchecked) var current: (method: String, path: String, note: String) = ("", "", "")
    @exclusivity(unchecked) var timer: LoopTimer?
    @exclusivity(unchecked) var timerPhase: TimerPhase = .none
    /// When the current phase times out, in loop milliseconds (`EventLoop.now`); unused while `timerPhase` is none.
    @exclusivity(unchecked) var phaseDeadline: UInt64 = 0
    /// When the armed timer fires (loop milliseconds); nil when it is not armed.
    @exclusivity(unchecked) var timerFiresAt: UInt64?
    /// Requests handled since the timer was last updated (each restarts the idle time).
    @exclusivity(unchecked) var requestsSinceTimer = 0
    /// The allowed `Origin` of the request being answered (its responses carry CORS fields).
    @exclusivity(unchecked) var currentOrigin: String?
    /// The last store looked up by name (requests on one connection tend to address the same store).
    @exclusivity(unchecked) var storeMemo: StoreRegistry.Memo?
    /// While a long poll (`min_version`, `wait=settled`) waits: answers it at once with the state now, when the
    /// server shuts down or the client closes its side (see ``holdLongPoll(_:)``).
    var cutShort: ((LongPollCut) -> Void)?

    /// Why a waiting long poll is answered before its wait is over.
    enum LongPollCut {
        /// The server is shutting down: 503 `shutting_down`.
        case shutdown
        /// The client closed its side of the connection (EOF): 408 `client_closed`, then the connection closes, so a
        /// client gone for good frees its connection at once instead of after `timeout_ms`.
        case peerClosed
    }

    /// What the connection is waiting for, and so which timeout runs.
    enum TimerPhase { case none, idle, head, body }

    init(connection: TCPConnection, context: ServerContext) {
        self.connection = connection
        self.context = context
        parser = HTTPRequestParser(
            limits: HTTPParserLimits(
                maxHeaderBytes: context.limits.maxHeaderBytes, maxBodyBytes: context.limits.maxBodyBytes,
                maxHeaderFields: context.limits.maxHeaderFields))
        connection.onRead = { [unowned self] bytes in received(bytes) }
        connection.onEnd = { [unowned self] _ in peerEnded() }
        connection.writeLimits = context.writeLimits
        connection.onWritable = { [unowned self] in writable() }
        // No capture (no context to allocate); kept by WebSocket and SSE sessions this connection may become.
        connection.onWriteStall = { unsent in
            Log.shared.info("connection closed: the client read nothing for timeouts.writeStallMs with \(unsent) bytes unsent")
        }
        connection.onClosed = { [unowned self] in
            timer?.close()
            timer = nil
            context.remove(self)
        }
        context.add(self)
        connection.startReading()
        updateTimer()
    }

    /// Shutdown: an idle connection closes; a busy one answers what it is preparing with `Connection: close`, and a
    /// long poll is answered at once with the state it has (503 `shutting_down`) instead of waiting out its timeout.
    func goAway() {
        switch state {
        case .idle where queuedCount == 0: close()
        case .idle, .busy:
            context.isShuttingDown = true  // the current or next response carries Connection: close
            if state == .busy { cutLongPoll(.shutdown) }
        case .closing, .upgraded: break
        }
    }

    var queuedCount: Int { queue.count - queueStart }

    /// Writes a response and moves to `idle` (or `closing` when the connection cannot be reused).
    func send(_ response: HTTPResponse, keepAlive requested: Bool, headOnly: Bool) {
        guard state == .idle || state == .busy else { return }
        // A peer that half-closed still gets an answer to every request it sent complete, in order; the last closes.
        let keepAlive = requested && !context.isShuttingDown && !(peerClosed && queuedCount == 0)
        Log.shared.debug("http \(current.method.isEmpty ? "" : "\(current.method) \(current.path)")\(current.note) → \(response.status)\(keepAlive ? "" : ", closing")")
        var response = response
        if currentOrigin != nil { response.fields += corsFields }
        connection.write(response.serialized(keepAlive: keepAlive, headOnly: headOnly) { OutboundBuffer(count: $0, fill: $1) })
        if keepAlive {
            state = .idle
        } else {
            state = .closing
            connection.closeAfterWrites()
        }
    }

    func send(error: APIError, keepAlive: Bool, headOnly: Bool) {
        send(Responses.error(error), keepAlive: keepAlive, headOnly: headOnly)
    }

    func close() {
        state = .closing
        connection.close()
    }

    /// The peer closed its side and nothing is left to answer: close once the unsent answers are written (at once
    /// when there are none).
    func closeAfterPeerEnded() {
        guard connection.unsentBytes > 0 else { return close() }
        state = .closing
        connection.closeAfterWrites()
    }
}
