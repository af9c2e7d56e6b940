import HTTP1
import UVLoop

/// One HTTP/1.1 connection: parses requests, answers them one at a time in order, and hands the socket to a
/// ``WebSocketSession`` on upgrade.
///
/// Pipelined requests are parsed as they arrive and queued; each is answered only after the one before it, so
/// responses leave in request order and actions from one connection are reduced in the order sent. Reading pauses
/// while the queue holds more than ``maxQueuedRequests``.
///
/// Lifecycle: `idle` ⇄ `busy` (a response is being prepared) → `closing` (after `Connection: close`, an error, or
/// shutdown) or `upgraded` (the socket belongs to a WebSocket session now).
///
/// ## Thread safety
/// Loop-confined: created, called and called back on the loop thread only.
final class HTTPSession: ServerSession, @unchecked Sendable {
    enum State { case idle, busy, closing, upgraded }

    static let maxQueuedRequests = 16

    let connection: TCPConnection
    let context: ServerContext
    let parser: HTTPRequestParser
    var state: State = .idle
    var queue: [HTTPParseEvent] = []
    var queueStart = 0
    var peerClosed = false
    /// `METHOD path` of the request being answered, for the debug log (never the query: it may hold a token).
    var current: (method: String, path: String, note: String) = ("", "", "")
    var timer: LoopTimer?
    var timerPhase: TimerPhase = .none
    /// When the current phase times out, in loop milliseconds (`EventLoop.now`); unused while `timerPhase` is none.
    var phaseDeadline: UInt64 = 0
    /// When the armed timer fires (loop milliseconds); nil when it is not armed.
    var timerFiresAt: UInt64?
    /// Requests handled since the timer was last updated (each restarts the idle time).
    var requestsSinceTimer = 0
    /// The allowed `Origin` of the request being answered (its responses carry CORS fields).
    var currentOrigin: String?

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
        connection.onClosed = { [unowned self] in
            timer?.close()
            timer = nil
            context.remove(self)
        }
        context.add(self)
        connection.startReading()
        updateTimer()
    }

    func goAway() {
        switch state {
        case .idle where queuedCount == 0: close()
        case .idle, .busy: context.isShuttingDown = true  // the current or next response carries Connection: close
        case .closing, .upgraded: break
        }
    }

    var queuedCount: Int { queue.count - queueStart }

    private func received(_ bytes: UnsafeRawBufferPointer) {
        guard state == .idle || state == .busy else { return }
        for event in parser.feed(bytes) {
            guard case .continueExpected = event else {
                queue.append(event)
                continue
            }
            // Only when nothing is answered before it, so responses stay in order (else the client sends anyway).
            if state == .idle, queuedCount == 0 { connection.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) }
        }
        if queuedCount >= Self.maxQueuedRequests { connection.stopReading() }
        // An upgrade hands this session's place to a WebSocket session; stay alive until this call returns.
        withExtendedLifetime(self) { processNext() }
    }

    private func peerEnded() {
        peerClosed = true
        queue += parser.finish()
        if state == .idle, queuedCount == 0 { close() } else { processNext() }
    }

    /// Takes the next queued event while idle.
    func processNext() {
        while state == .idle, queuedCount > 0 {
            let event = queue[queueStart]
            queueStart += 1
            if queueStart == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueStart = 0
            }
            handle(event)
        }
        if state == .idle {
            if peerClosed { close() } else if queuedCount < Self.maxQueuedRequests { connection.startReading() }
        }
        updateTimer()
    }

    private func handle(_ event: HTTPParseEvent) {
        switch event {
        case .request(let request):
            requestsSinceTimer += 1
            current = (request.method, request.path, "")  // no formatting unless the debug line is written
            guard Self.hasValidHost(request) else { return refuseHost() }
            dispatch(request)
        case .upgrade(let request, let leftover):
            current = (request.method, request.path, " (upgrade)")
            guard Self.hasValidHost(request) else { return refuseHost() }
            upgrade(request, leftover: leftover)
        case .continueExpected:
            break
        case .failure(let failure):
            current = ("", "", "(unparsable request)")
            currentOrigin = nil
            let error = APIError(status: failure.status, code: failure.code, message: failure.message)
            send(error: error, keepAlive: false, headOnly: false)
        }
    }

    /// RFC 9112 §3.2: an HTTP/1.1 request has exactly one `Host` field (HTTP/1.0 may have none, not several).
    static func hasValidHost(_ request: HTTPRequest) -> Bool {
        let count = request.fields.count(of: "Host")
        return count == 1 || (count == 0 && request.versionMinor == 0)
    }

    /// 400 and close for a request without exactly one `Host` (RFC 9112 §3.2).
    private func refuseHost() {
        currentOrigin = nil
        send(error: APIError(
            status: 400, code: "invalid_host",
            message: "An HTTP/1.1 request needs exactly one Host header field (RFC 9112 §3.2); add Host: <host>:<port>."),
            keepAlive: false, headOnly: false)
    }

    /// Writes a response and moves to `idle` (or `closing` when the connection cannot be reused).
    func send(_ response: HTTPResponse, keepAlive requested: Bool, headOnly: Bool) {
        guard state == .idle || state == .busy else { return }
        let keepAlive = requested && !context.isShuttingDown && !peerClosed
        Log.shared.debug("http \(current.method.isEmpty ? "" : "\(current.method) \(current.path)")\(current.note) → \(response.status)\(keepAlive ? "" : ", closing")")
        var response = response
        response.fields += corsFields
        connection.write(response.serialized(keepAlive: keepAlive, headOnly: headOnly))
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
}
