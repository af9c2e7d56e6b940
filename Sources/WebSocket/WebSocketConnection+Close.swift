extension WebSocketConnection {
    /// Event: the app closes the connection (§7.1.2): while open, sends a Close with `code` and `reason` (cut to fit
    /// 125 bytes at a UTF-8 boundary), asks the adapter to read (the peer's Close is awaited whatever the app's
    /// backpressure) and arms the close timer (``Configuration/closeTimeoutMs``). No effect in any other state.
    /// - Parameters:
    ///   - code: should be sendable (§7.4; not checked), e.g. 1000 or 1001.
    ///   - reason: a short UTF-8 text, may be empty.
    public mutating func close(code: WebSocketCloseCode, reason: String, into actions: inout [Action]) {
        guard lifecycle == .open else { return }
        WebSocketFrameEncoder.closePayload(code: code, reason: reason).withUnsafeBytes {
            actions.append(.write(frame(.close, payload: $0)))
        }
        lifecycle = .closeSent
        cancelKeepAlive(into: &actions)
        actions.append(.resumeReading)
        actions.append(.armTimer(.close, milliseconds: configuration.closeTimeoutMs))
    }

    /// Event: the app fails the connection (§7.1.7), e.g. with an application code (4000–4999) for a policy of its
    /// own: while open, a Close with the failure's code and reason, then the socket closes once it is written. During
    /// a closing handshake (our Close is sent already) the socket closes after the queued writes; no effect when closed.
    public mutating func fail(_ failure: WebSocketFailure, into actions: inout [Action]) {
        failConnection(failure, into: &actions)
    }

    /// Event: the peer ended TCP (EOF) or the socket failed. Closes the socket at once, in every state (when closed
    /// already, a pending close-after-writes becomes a close now: the peer will read nothing more).
    public mutating func peerEnded(into actions: inout [Action]) {
        guard lifecycle != .closed else { return actions.append(.close(afterWrites: false, cause: .peerEnded)) }
        enterClosed(afterWrites: false, cause: .peerEnded, into: &actions)
    }

    /// Event: a timer armed by an ``Action/armTimer(_:milliseconds:)`` fired.
    ///
    /// `.close`: the peer did not answer our Close (or a client's server did not end TCP) in time, so the socket closes
    /// now. `.keepAlive`: the liveness check (see ``Liveness``) runs with `status`: it may ping, re-arm, or drop the
    /// connection. A timer that fires in a state where it no longer matters does nothing.
    public mutating func timerFired(_ timer: Timer, _ status: TransportStatus, into actions: inout [Action]) {
        switch timer {
        case .close:
            guard lifecycle == .closeSent || lifecycle == .awaitingEOF else { return }
            enterClosed(afterWrites: false, cause: .closeTimedOut, fired: .close, into: &actions)
        case .keepAlive:
            keepAlive.isArmed = false
            guard lifecycle == .open else { return }
            checkLiveness(status, into: &actions)
        }
    }

    /// A protocol error of the peer or an app failure (§7.1.7): the Close with its code and reason while open.
    mutating func failConnection(_ failure: WebSocketFailure, into actions: inout [Action]) {
        switch lifecycle {
        case .open:
            WebSocketFrameEncoder.closePayload(code: failure.closeCode, reason: failure.reason).withUnsafeBytes {
                actions.append(.write(frame(.close, payload: $0)))
            }
            enterClosed(afterWrites: true, cause: .failed(failure), into: &actions)
        case .closeSent, .awaitingEOF:
            // Our Close is on its way already; a second one is never sent (§5.5.1).
            enterClosed(afterWrites: true, cause: .failed(failure), into: &actions)
        case .closed:
            break
        }
    }

    /// Moves to `closed`: stops the timers that may still run (not `fired`, the one that just fired), then the close.
    mutating func enterClosed(
        afterWrites: Bool, cause: CloseCause, fired: Timer? = nil, into actions: inout [Action]
    ) {
        if lifecycle == .closeSent || lifecycle == .awaitingEOF, fired != .close { actions.append(.cancelTimer(.close)) }
        cancelKeepAlive(into: &actions)
        lifecycle = .closed
        reader.finish()
        actions.append(.close(afterWrites: afterWrites, cause: cause))
    }
}
