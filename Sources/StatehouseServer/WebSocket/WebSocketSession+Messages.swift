import UVLoop
import WebSocket

/// The adapter between the socket and the `WebSocketConnection` machine: events in, actions carried out.
extension WebSocketSession {
    /// Bytes from the socket: the machine reads them one delivered message at a time (so the answer to a message is
    /// written before the next is looked at); then, while write-paused, reading stops until writable again.
    func received(_ bytes: UnsafeRawBufferPointer) {
        context.loop.assertInLoop()
        let now = context.loop.now
        var offset = 0
        repeat {
            var actions: [WebSocketConnection.Action] = []
            machine.read(bytes, from: &offset, now: now, into: &actions)
            if machine.state != .open { stopStreams() }
            carryOut(actions)
        } while offset < bytes.count
        if state == .open, connection.isWritePaused { connection.stopReading() }  // until writable again
    }

    /// Feeds one event to the machine and carries out its actions.
    func perform(_ event: (inout WebSocketConnection, inout [WebSocketConnection.Action]) -> Void) {
        context.loop.assertInLoop()
        var actions: [WebSocketConnection.Action] = []
        event(&machine, &actions)
        if machine.state != .open { stopStreams() }
        carryOut(actions)
    }

    /// The machine has left `open`: the subscriptions send no more data (RFC 6455 §5.5.1). Each keeps the flag it
    /// checks per delivery (``WebSocketSubscription/isStreaming``), so a delivery does not read the session.
    func stopStreams() {
        context.loop.assertInLoop()
        for subscription in subscriptions.values where subscription.isStreaming { subscription.isStreaming = false }
    }

    /// Carries out the machine's actions in order.
    func carryOut(_ actions: [WebSocketConnection.Action]) {
        context.loop.assertInLoop()
        for action in actions {
            switch action {
            case .write(let frame): connection.write(frame)
            case .deliver(let message): handle(message)
            case .resumeReading: connection.startReading()
            case .armTimer(let timer, let ms): arm(timer, afterMs: ms)
            case .cancelTimer(.keepAlive): keepAlive?.stop()
            case .cancelTimer(.close): closeTimer?.stop()
            case .close(let afterWrites, let cause):
                logClose(cause)
                if afterWrites { connection.closeAfterWrites() } else { connection.close() }
            }
        }
    }

    /// A message the machine delivered (only while open): text is a client message, binary is refused.
    private func handle(_ message: WebSocketConnection.Message) {
        switch message {
        case .text(let text):
            handleText(text)
        case .binary:
            sendMessage(WireMessage.error(ref: nil, ClientMessageDecoding.invalidMessage(
                "Send messages as text frames holding one JSON object; binary messages are not read.")))
        }
    }

    private func logClose(_ cause: WebSocketConnection.CloseCause) {
        switch cause {
        case .peerClosed(let code):
            context.logger.debug("ws \(label) closed by the client (code \(code.map(String.init) ?? "none"))", metadata: logMetadata)
        case .failed(let failure):
            context.logger.info("ws \(label) failed: close \(failure.closeCode.rawValue) (\(failure.reason))", metadata: logMetadata)
        case .noPong:
            context.logger.info(
                "ws \(label) dropped: no answer to a ping within \(context.timeouts.pongTimeoutMs) ms", metadata: logMetadata)
        case .closeTimedOut, .peerEnded:
            break
        }
    }

    /// Names the connection in logs: its store, or `/ws`.
    var label: String { home?.name ?? "/ws" }

    /// The metadata of the connection's log lines: `store=<name>` on a store's endpoint, then `conn=<id>`.
    var logMetadata: Logger.Metadata { connectionMetadata(store: home?.name) }

    /// Sends one JSON message as a text frame (RFC 6455 §5.6), framed straight into the write buffer; dropped once
    /// the connection is closing (no data after a Close, §5.5.1).
    func sendMessage(_ json: [UInt8]) {
        context.loop.assertInLoop()
        guard machine.mayWriteData else { return }
        let buffer = OutboundBuffer(count: machine.frameLength(payloadCount: json.count)) { base in
            json.withUnsafeBytes { machine.encodeFrame(.text, payload: $0, to: base) }
        }
        connection.write(buffer)
    }
}
