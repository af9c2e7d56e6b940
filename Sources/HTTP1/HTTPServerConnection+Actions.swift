/// What the connection does next, one action at a time (no array of actions: nothing is allocated per request).
extension HTTPServerConnection {
    /// The next thing for the owner to do, or nil when there is nothing until the next event.
    ///
    /// In order: a close an event decided; owed `100 Continue` responses; pausing reading when the queue is full;
    /// a refusal (timeout); while idle and writable, the next queued request (delivered, upgraded or refused); once
    /// idle, pausing reading while writes are paused, closing once the peer's input ended, or reading again; last,
    /// the timeout that should run now, when it changed.
    @inlinable
    public mutating func nextAction() -> Action? {
        if let close = pendingClose {
            pendingClose = nil
            _timer = nil
            return .close(close)
        }
        guard state == .idle || state == .responding else { return nil }
        if continuesOwed > 0 {
            continuesOwed -= 1
            return .sendContinue
        }
        if !isReadingPaused, queuedCount >= configuration.maxQueuedRequests {
            _isReadingPaused = true
            return .pauseReading
        }
        if let refusal = pendingRefusal {
            pendingRefusal = nil
            _timer = nil
            return .refuse(refusal, headOnly: false)
        }
        if state == .idle {
            if queuedCount > 0, !isWritePaused, let taken = take() { return taken }
            if isWritePaused {
                if !isReadingPaused {
                    _isReadingPaused = true
                    return .pauseReading
                }
            } else if isInputClosed {
                _state = .closing
                _timer = nil
                return .close(.whenWritten)
            } else if isReadingPaused, queuedCount < configuration.maxQueuedRequests {
                _isReadingPaused = false
                return .resumeReading
            }
        }
        return timerChange()
    }

    /// Takes the next queued event (idle, writable) and makes it the one being answered.
    @inlinable
    mutating func take() -> Action? {
        // Moved out (a placeholder left behind), not copied: no retain and release of every part of the request.
        var event = HTTPParseEvent.continueExpected
        swap(&event, &queue[queueStart])
        queueStart += 1
        if queueStart == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueStart = 0
        }
        _state = .responding
        _timer = nil  // the delivering actions stop the running timeout
        switch consume event {
        case .request(let request):
            guard Self.hasValidHost(request) else { return refuse(.invalidHost, headOnly: request.method == "HEAD") }
            return .deliver(request)
        case .upgrade(let request, let leftover):
            guard Self.hasValidHost(request) else { return refuse(.invalidHost, headOnly: request.method == "HEAD") }
            return .upgrade(request, leftover: leftover)
        case .failure(let failure):
            return refuse(failure, headOnly: false)
        case .continueExpected:  // never queued (see received)
            _state = .idle
            return nil
        }
    }

    @inlinable
    mutating func refuse(_ failure: HTTPParseFailure, headOnly: Bool) -> Action {
        closesAfterResponse = true
        return .refuse(failure, headOnly: headOnly)
    }

    /// RFC 9112 §3.2: an HTTP/1.1 request has exactly one `Host` field (HTTP/1.0 may have none, not several).
    @inlinable
    public static func hasValidHost(_ request: HTTPRequest) -> Bool {
        let count = request.fields.count(of: "Host")
        return count == 1 || (count == 0 && request.versionMinor == 0)
    }

    /// The timeout that should run now, as an action when it differs from the one running (or is the idle timeout
    /// and a response started since it was armed: the idle time counts from the last response).
    @inlinable
    mutating func timerChange() -> Action? {
        let wanted: Timeout?
        if state != .idle || queuedCount > 0 {
            wanted = nil
        } else {
            switch position {
            case .betweenMessages: wanted = .idle
            case .inHead: wanted = .head
            case .inBody: wanted = .body
            }
        }
        let restarted = responsesSinceTimer > 0
        responsesSinceTimer = 0
        guard wanted != timer || (wanted == .idle && restarted) else { return nil }
        _timer = wanted
        guard let wanted else { return .cancelTimer }
        return .armTimer(wanted, milliseconds: configuration.milliseconds(wanted))
    }
}
