/// The events a connection's owner reports. None returns an action: the owner calls ``HTTPServerConnection/nextAction()``
/// afterwards until it returns nil.
extension HTTPServerConnection {
    /// Bytes arrived: `parser` (this connection's) parses them, and the requests they complete join the queue.
    /// Ignored once closing or handed off.
    ///
    /// - Parameters:
    ///   - bytes: The bytes as received; valid for the call only.
    ///   - parser: The connection's parser (it keeps partial messages between calls).
    public mutating func received(_ bytes: UnsafeRawBufferPointer, parser: HTTPRequestParser) {
        guard state == .idle || state == .responding else { return }
        let firstNew = queue.count
        parser.feed(bytes, appendingTo: &queue)
        enqueued(from: firstNew, position: InputPosition(parser))
    }

    /// One parsed event (for owners that parse elsewhere, and for tests): as ``received(_:parser:)`` with input that
    /// completes `event` and leaves the parser at `position`.
    public mutating func received(_ event: HTTPParseEvent, position: InputPosition = .betweenMessages) {
        guard state == .idle || state == .responding else { return }
        queue.append(event)
        enqueued(from: queue.count - 1, position: position)
    }

    /// New events from `firstNew` on: each `continueExpected` leaves the queue, and is owed a `100 Continue` when no
    /// request is queued or answered before it (RFC 9110 §10.1.1), so responses stay in order.
    private mutating func enqueued(from firstNew: Int, position: InputPosition) {
        self._position = position
        var kept = firstNew
        for index in firstNew..<queue.count {
            guard case .continueExpected = queue[index] else {
                if kept != index { queue.swapAt(kept, index) }
                kept += 1
                continue
            }
            if state == .idle, kept == queueStart { continuesOwed += 1 }
        }
        if kept < queue.count { queue.removeSubrange(kept...) }
    }

    /// The owner starts the response to the request it was given (or the refusal), which frames it: keep-alive
    /// (`true`) or `Connection: close` (`false`, after which the owner closes once it is written, and the connection
    /// is closing).
    ///
    /// - Parameter requested: Whether the request allows keeping the connection (``HTTPRequest/keepAlive``, or
    ///   false when the owner wants to close).
    /// - Returns: Whether the connection stays open after this response; nil when no response is expected now (none
    ///   was asked for, or it is closing or handed off): write nothing.
    @inlinable
    public mutating func responseStarted(keepAlive requested: Bool) -> Bool? {
        guard state == .responding else { return nil }
        // A peer that half-closed still gets an answer to every request it sent complete, in order; the last closes.
        let keepAlive = requested && !closesAfterResponse && !isShuttingDown && !(isInputClosed && queuedCount == 0)
        closesAfterResponse = false
        responsesSinceTimer += 1
        _state = keepAlive ? .idle : .closing
        return keepAlive
    }

    /// The owner gave the connection to another protocol (after an ``Action/upgrade(_:leftover:)`` or for a stream
    /// that never ends, such as server-sent events). Final.
    public mutating func handedOff() {
        guard state == .responding else { return }
        _state = .handedOff
        _timer = nil
    }

    /// The owner's writes are paused (more unsent bytes than its high-water mark): no request is delivered, and
    /// reading pauses once idle.
    public mutating func writesPaused() { _isWritePaused = true }

    /// The owner's unsent bytes fell to its low-water mark: queued requests are delivered again.
    public mutating func writesResumed() { _isWritePaused = false }

    /// The timer armed for `timeout` fired (its full time passed). Ignored unless it is the timeout that runs and the
    /// connection is idle: idle closes, head and body are refused with 408 `request_timeout`.
    public mutating func timerFired(_ timeout: Timeout) {
        guard state == .idle, timer == timeout else { return }
        _timer = nil
        switch timeout {
        case .idle:
            _state = .closing
            pendingClose = .immediately
        case .head, .body:
            _state = .responding
            closesAfterResponse = true
            pendingRefusal = .requestTimeout(timeout == .head ? "header fields" : "body")
        }
    }

    /// The peer ended its side (EOF). `final`: what the parser reports for a request left incomplete
    /// (``HTTPRequestParser/finish()``). Every request received complete is still answered; then the connection
    /// closes.
    public mutating func inputEnded(_ final: [HTTPParseEvent]) {
        guard state == .idle || state == .responding else { return }
        _isInputClosed = true
        queue += final
        _position = .betweenMessages
        if state == .idle, queuedCount == 0 {
            _state = .closing
            pendingClose = .whenWritten
        }
    }

    /// The server shuts down: an idle connection with nothing queued closes at once; otherwise the response being
    /// prepared (or the next) closes the connection.
    public mutating func shutDown() {
        guard state == .idle || state == .responding else { return }
        _isShuttingDown = true
        if state == .idle, queuedCount == 0 {
            _state = .closing
            pendingClose = .immediately
        }
    }
}
