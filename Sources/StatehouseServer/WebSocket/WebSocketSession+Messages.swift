import UVLoop
import WebSocket

extension WebSocketSession {
    func received(_ bytes: UnsafeRawBufferPointer) {
        guard state == .open || state == .closing else { return }
        let result = reader.read(bytes)
        for message in result.messages {
            handle(message)
            if state == .closed { return }
        }
        if let failure = result.failure { return fail(failure) }
        if state == .open, connection.isWritePaused { connection.stopReading() }  // until writable again
    }

    private func handle(_ message: WebSocketMessage) {
        switch message {
        case .text(let text):
            guard state == .open else { return }
            handleText(Array(text.utf8))
        case .binary:
            guard state == .open else { return }
            sendMessage(WireMessage.error(ref: nil, ClientMessageDecoding.invalidMessage(
                "Send messages as text frames holding one JSON object; binary messages are not read.")))
        case .ping(let payload):
            connection.write(WebSocketFrameEncoder.frame(opcode: .pong, payload: payload))
        case .pong:
            break
        case .close(let code, _):
            peerClosed(code: code)
        }
    }

    /// Names the connection in logs: its store, or `/ws`.
    var label: String { home?.name ?? "/ws" }

    func sendMessage(_ json: [UInt8]) {
        connection.write(WebSocketFrames.text(json))
    }

    /// The peer's Close (§5.5.1): echo it and close, or, if we sent ours first, this completes the handshake.
    private func peerClosed(code: UInt16?) {
        Log.shared.debug("ws \(label) closed by the client (code \(code.map(String.init) ?? "none"))")
        if state == .open {
            let payload = code.map { WebSocketFrameEncoder.closePayload(code: WebSocketCloseCode(rawValue: $0), reason: "") } ?? []
            connection.write(WebSocketFrameEncoder.frame(opcode: .close, payload: payload))
            state = .closed
            connection.closeAfterWrites()
        } else {
            state = .closed
            connection.close()
        }
    }

    /// Fails the connection (§7.1.7): Close with the failure's code, then close TCP once it is written.
    func fail(_ failure: WebSocketFailure) {
        guard state == .open || state == .joining || state == .closing else { return }
        Log.shared.info("ws \(label) failed: close \(failure.closeCode.rawValue) (\(failure.reason))")
        let payload = WebSocketFrameEncoder.closePayload(code: failure.closeCode, reason: failure.reason)
        connection.write(WebSocketFrameEncoder.frame(opcode: .close, payload: payload))
        state = .closed
        connection.closeAfterWrites()
    }

    /// Starts the closing handshake from our side and waits up to 1 s for the peer's Close.
    func startClosing(_ code: WebSocketCloseCode, reason: String) {
        let payload = WebSocketFrameEncoder.closePayload(code: code, reason: reason)
        connection.write(WebSocketFrameEncoder.frame(opcode: .close, payload: payload))
        state = .closing
        connection.startReading()
        let timer = LoopTimer(loop: context.loop)
        closeTimer = timer
        timer.start(delayMs: 1000) { [weak self] in self?.connection.close() }
    }
}
