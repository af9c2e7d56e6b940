import HTTP1

/// Reading requests: the parser's events are queued as bytes arrive and answered one at a time, in order.
extension HTTPSession {
    /// Parses bytes that arrived: their events join the queue (without a `100 Continue` event, answered here).
    func received(_ bytes: UnsafeRawBufferPointer) {
        guard state == .idle || state == .busy else { return }
        let firstNew = queue.count
        parser.feed(bytes, appendingTo: &queue)
        if queue[firstNew...].contains(where: { if case .continueExpected = $0 { true } else { false } }) {
            answerContinues(from: firstNew)
        }
        if queuedCount >= Self.maxQueuedRequests { connection.stopReading() }
        // An upgrade hands this session's place to a WebSocket session; stay alive until this call returns.
        withExtendedLifetime(self) { processNext() }
    }

    /// Takes the `continueExpected` events out of the queue from `firstNew` on, answering each with `100 Continue`
    /// when nothing is queued before it, so responses stay in order (else the client sends the body anyway).
    private func answerContinues(from firstNew: Int) {
        let fresh = Array(queue[firstNew...])
        queue.removeSubrange(firstNew...)
        for event in fresh {
            guard case .continueExpected = event else {
                queue.append(event)
                continue
            }
            if state == .idle, queuedCount == 0 { connection.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) }
        }
    }

    /// The peer closed its side: a partial request becomes a failure to answer; then the session closes.
    func peerEnded() {
        peerClosed = true
        queue += parser.finish()
        if state == .busy { cutLongPoll(.peerClosed) }
        if state == .idle, queuedCount == 0 { closeAfterPeerEnded() } else { processNext() }
    }

    /// The connection drained below its low-water mark: answer what is queued, then read again. While busy, the
    /// answer in progress takes the next request when it is sent.
    func writable() {
        guard state == .idle else { return }
        withExtendedLifetime(self) { processNext() }
    }

    /// Takes the next queued event while idle and the connection is not write-paused.
    func processNext() {
        while state == .idle, queuedCount > 0, !connection.isWritePaused {
            // Moved out (a placeholder left behind), not copied: no retain and release of every part of the request.
            var event = HTTPParseEvent.continueExpected
            swap(&event, &queue[queueStart])
            queueStart += 1
            if queueStart == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueStart = 0
            }
            handle(event)
        }
        if state == .idle {
            if connection.isWritePaused {
                connection.stopReading()  // until `writable()`
            } else if peerClosed {
                closeAfterPeerEnded()
            } else if queuedCount < Self.maxQueuedRequests {
                connection.startReading()
            }
        }
        updateTimer()
    }

    private func handle(_ event: HTTPParseEvent) {
        switch event {
        case .request(let request):
            requestsSinceTimer += 1
            current = (request.method, request.path, "")  // no formatting unless the debug line is written
            guard Self.hasValidHost(request) else { return refuseHost(headOnly: request.method == "HEAD") }
            dispatch(request)
        case .upgrade(let request, let leftover):
            current = (request.method, request.path, " (upgrade)")
            guard Self.hasValidHost(request) else { return refuseHost(headOnly: request.method == "HEAD") }
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

    /// 400 and close for a request without exactly one `Host` (RFC 9112 §3.2); no body for a `HEAD` request.
    private func refuseHost(headOnly: Bool) {
        currentOrigin = nil
        send(error: APIError(
            status: 400, code: "invalid_host",
            message: "An HTTP/1.1 request needs exactly one Host header field (RFC 9112 §3.2); add Host: <host>:<port>."),
            keepAlive: false, headOnly: headOnly)
    }
}
