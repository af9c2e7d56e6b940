import HTTP1
import UVLoop

/// The adapter: socket events go to the connection rules (``HTTPServerConnection``), and their actions are performed
/// on the socket, the timer and the app (a delivered request goes to ``dispatch(_:)``).
extension HTTPSession {
    /// Bytes arrived: parsed into the rules' queue, then whatever the rules say next.
    func received(_ bytes: UnsafeRawBufferPointer) {
        context.loop.assertInLoop()
        rules.received(bytes, parser: parser)
        // An upgrade hands this session's place to a WebSocket session; stay alive until this call returns.
        withExtendedLifetime(self) { processNext() }
    }

    /// The peer closed its side: a partial request becomes a failure to answer; a waiting long poll is answered at
    /// once; then the session closes once every complete request is answered.
    func peerEnded() {
        context.loop.assertInLoop()
        rules.inputEnded(parser.finish())
        if isAnswering { cutLongPoll(.peerClosed) }
        processNext()
    }

    /// The connection drained below its low-water mark: answer what is queued, then read again. While a request is
    /// answered, its response takes the next request when it is sent.
    func writable() {
        context.loop.assertInLoop()
        rules.writesResumed()
        guard rules.state == .idle else { return }
        withExtendedLifetime(self) { processNext() }
    }

    /// Performs the rules' actions until they have none (a request answered at once leads to the next).
    func processNext() {
        context.loop.assertInLoop()
        while let action = rules.nextAction() { perform(action) }
    }

    private func perform(_ action: consuming HTTPServerConnection.Action) {
        switch consume action {  // moved out: no copy of a delivered request
        case .deliver(let request):
            timerKind = nil
            current = (request.method, request.path, "")  // no formatting unless the debug line is written
            beginRequest(clientID: request.fields[RequestID.fieldName])
            dispatch(request)
        case .armTimer(let timeout, let milliseconds):
            armTimer(timeout, milliseconds: milliseconds)
        case .cancelTimer:
            timerKind = nil  // an armed loop timer finds nothing to do when it fires
        case .sendContinue:
            connection.write(HTTPServerConnection.continueBytes)
            if connection.isWritePaused { rules.writesPaused() }
        case .upgrade(let request, let leftover):
            timerKind = nil
            current = (request.method, request.path, " (upgrade)")
            beginRequest(clientID: request.fields[RequestID.fieldName])
            upgrade(request, leftover: leftover)
        case .refuse(let failure, let headOnly):
            timerKind = nil
            current = ("", "", " (refused: \(failure.code))")
            currentOrigin = nil
            beginRequest(clientID: nil)
            send(error: APIError(failure), keepAlive: false, headOnly: headOnly)
        case .pauseReading:
            connection.stopReading()
        case .resumeReading:
            connection.startReading()
        case .close(.immediately):
            connection.close()
        case .close(.whenWritten):
            if connection.unsentBytes > 0 { connection.closeAfterWrites() } else { connection.close() }
        }
    }

    /// Writes the response to the request being answered, framed as the rules say (keep-alive or close); nothing
    /// when no response is expected (answered already, or the connection is closing or handed off).
    func send(_ response: HTTPResponse, keepAlive requested: Bool, headOnly: Bool) {
        send(response, body: response.body, keepAlive: requested, headOnly: headOnly)
    }

    /// ``send(_:keepAlive:headOnly:)`` with the body written by `body` straight into the response's buffer
    /// (`response.body` is ignored).
    func send<Body: HTTPBodyWriter>(_ response: HTTPResponse, body: Body, keepAlive requested: Bool, headOnly: Bool) {
        context.loop.assertInLoop()
        guard let keepAlive = rules.responseStarted(keepAlive: requested && !context.isShuttingDown) else { return }
        context.logger.debug(
            "http \(current.method.isEmpty ? "" : "\(current.method) \(current.path)")\(current.note) → \(response.status)\(keepAlive ? "" : ", closing")",
            metadata: requestMetadata)
        var response = response
        if currentOrigin != nil { response.fields += corsFields }
        connection.write(
            response.serialized(keepAlive: keepAlive, headOnly: headOnly, extraField: requestIDField, body: body) {
                OutboundBuffer(count: $0, fill: $1)
            })
        if !keepAlive {
            connection.closeAfterWrites()
        } else if connection.isWritePaused {
            rules.writesPaused()
        }
    }

    func send(error: APIError, keepAlive: Bool, headOnly: Bool) {
        context.loop.assertInLoop()
        send(Responses.error(error), keepAlive: keepAlive, headOnly: headOnly)
    }

    /// Sends the response to the request being answered later (a store's reply, a long poll), then takes the next.
    func finish(_ response: HTTPResponse, keepAlive: Bool, headOnly: Bool = false) {
        finish(response, body: response.body, keepAlive: keepAlive, headOnly: headOnly)
    }

    /// ``finish(_:keepAlive:headOnly:)`` with the body written by `body` (`response.body` is ignored).
    func finish<Body: HTTPBodyWriter>(_ response: HTTPResponse, body: Body, keepAlive: Bool, headOnly: Bool = false) {
        context.loop.assertInLoop()
        guard isAnswering else { return }
        cutShort = nil
        send(response, body: body, keepAlive: keepAlive, headOnly: headOnly)
        processNext()
    }

    /// The connection goes to another session (WebSocket, SSE) now.
    func handOff() {
        context.loop.assertInLoop()
        rules.handedOff()
        endTimer()
    }
}
