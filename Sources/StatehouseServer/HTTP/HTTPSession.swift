import HTTP1
import UVLoop

/// One HTTP/1.1 connection of the API: the adapter between its ``TCPConnection`` and the connection rules of
/// ``HTTPServerConnection`` (HTTP1), which decide what is answered next, whether the connection stays open, which
/// timeout runs and when to close; this type performs what the rules say, and answers each delivered request
/// (routing: +Routes; access: +Access; store administration: +Stores; actions: +Actions; reads: +Reads, +History;
/// hand-offs to WebSocket and server-sent events: +Upgrade).
///
/// Write backpressure: while the connection is write-paused (more than `streams.writeHighWaterBytes` unsent, see
/// `TCPConnection`), the rules deliver no queued request and stop reading; both resume once the unsent bytes fell to
/// half of that. A peer that reads nothing for `timeouts.writeStallMs` is closed by the connection itself.
///
/// Lifecycle: the rules' (``HTTPServerConnection/State``): `idle` ⇄ `responding` → `closing` or `handedOff` (the
/// socket belongs to a WebSocket or SSE session now).
///
/// ## Thread safety
/// Loop-confined: created, called and called back on the loop thread only.
final class HTTPSession: ServerSession, @unchecked Sendable {
    /// Parsed requests that may wait before reading pauses.
    static let maxQueuedRequests = 16

    // The variables are touched on the loop thread only (see Thread safety), several times per request: no dynamic
    // exclusivity checks. Measured (issue 14, callgrind, release, http-actions): the checks would cost about 700
    // instructions per request (`received` 240, `finish` 236, `send` 152, `store(named:)` 80).

    let connection: TCPConnection
    let context: ServerContext
    /// The connection's number in log lines (`conn=`), kept by the WebSocket or SSE session it may become.
    let connectionID: UInt64
    let parser: HTTPRequestParser
    /// The connection rules' state: the request queue, keep-alive, the timeout that runs.
    @exclusivity(unchecked) var rules: HTTPServerConnection
    /// `METHOD path` of the request being answered, for the debug log (never the query: it may hold a token).
    @exclusivity(unchecked) var current: (method: String, path: String, note: String) = ("", "", "")
    /// The loop timer behind the rules' timeouts (see +Timer).
    @exclusivity(unchecked) var timer: LoopTimer?
    /// The timeout the rules armed last; nil when none runs.
    @exclusivity(unchecked) var timerKind: HTTPServerConnection.Timeout?
    /// When that timeout is over, in loop milliseconds (`EventLoop.now`).
    @exclusivity(unchecked) var timerDeadline: UInt64 = 0
    /// When the loop timer fires (loop milliseconds); nil when it is not armed.
    @exclusivity(unchecked) var timerFiresAt: UInt64?
    /// The allowed `Origin` of the request being answered (its responses carry CORS fields).
    @exclusivity(unchecked) var currentOrigin: String?
    /// The last store looked up by name (requests on one connection tend to address the same store).
    @exclusivity(unchecked) var storeMemo: StoreRegistry.Memo?
    /// The `X-Request-Id` the client sent with the request being answered, when acceptable (see ``RequestID``).
    @exclusivity(unchecked) var clientRequestID: String?
    /// The number of the id this loop makes for the request being answered when the client sent none (the id's text
    /// is made only when a response or a log line needs it).
    @exclusivity(unchecked) var requestNumber: UInt64 = 0
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

    init(connection: TCPConnection, context: ServerContext) {
        context.loop.assertInLoop()
        self.connection = connection
        self.context = context
        connectionID = context.nextConnectionID()
        parser = HTTPRequestParser(
            limits: HTTPParserLimits(
                maxHeaderBytes: context.limits.maxHeaderBytes, maxBodyBytes: context.limits.maxBodyBytes,
                maxHeaderFields: context.limits.maxHeaderFields))
        rules = HTTPServerConnection(
            configuration: .init(
                maxQueuedRequests: Self.maxQueuedRequests, idleTimeoutMs: context.timeouts.idleTimeoutMs,
                headTimeoutMs: context.timeouts.headerTimeoutMs, bodyTimeoutMs: context.timeouts.bodyTimeoutMs))
        connection.onRead = { [unowned self] bytes in received(bytes) }
        connection.onEnd = { [unowned self] _ in peerEnded() }
        connection.writeLimits = context.writeLimits
        connection.onWritable = { [unowned self] in writable() }
        // Captures no session: kept by the WebSocket or SSE session this connection may become. (Its context, 32
        // bytes, is the one allocation per connection logging costs.)
        connection.onWriteStall = { [context, id = connectionID] unsent in
            context.logger.info(
                "connection closed: the client read nothing for timeouts.writeStallMs with \(unsent) bytes unsent",
                metadata: ["conn": String(id)])
        }
        connection.onClosed = { [unowned self] in
            timer?.close()
            timer = nil
            context.remove(self)
        }
        context.add(self)
        connection.startReading()
        processNext()  // arms the idle timeout
    }

    /// Whether a delivered request is being answered (its response not started): the guard of every answer that
    /// comes later (a long poll, a store's reply), which may have been cut short or the connection closed meanwhile.
    var isAnswering: Bool { rules.state == .responding }

    /// Shutdown: an idle connection closes; a busy one answers what it is preparing with `Connection: close`, and a
    /// long poll is answered at once with the state it has (503 `shutting_down`) instead of waiting out its timeout.
    func goAway() {
        context.loop.assertInLoop()
        guard rules.state == .idle || rules.state == .responding else { return }
        context.isShuttingDown = true  // the current or next response carries Connection: close
        rules.shutDown()
        if isAnswering { cutLongPoll(.shutdown) }
        processNext()
    }
}

/// Request ids (`X-Request-Id`, see ``RequestID``).
extension HTTPSession {
    /// A request was delivered (or refused, `value` nil): its id is the client's `X-Request-Id` when acceptable, else
    /// one this loop makes.
    func beginRequest(clientID value: String?) {
        if let value, RequestID.isAcceptable(value) {
            clientRequestID = value
        } else {
            clientRequestID = nil
            requestNumber = context.nextRequestNumber()
        }
    }

    /// The id of the request being answered.
    var requestID: String {
        clientRequestID ?? RequestID.made(prefix: context.requestIDPrefix, number: requestNumber)
    }

    /// `X-Request-Id: <id>`: on every response to the request.
    var requestIDField: HTTPField { HTTPField(name: RequestID.fieldName, value: requestID) }

    /// `conn=<connectionID> request_id=<id>`: the metadata of a log line about the request being answered.
    var requestMetadata: Logger.Metadata { ["conn": String(connectionID), "request_id": requestID] }

    /// `store=<name>` (when there is a store), `conn=…`, `request_id=…`.
    func requestMetadata(store name: String?) -> Logger.Metadata {
        guard let name else { return requestMetadata }
        return ["store": name, "conn": String(connectionID), "request_id": requestID]
    }
}
