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
        if let failure = result.failure { fail(failure) }
    }

    private func handle(_ message: WebSocketMessage) {
        switch message {
        case .text(let text):
            guard state == .open else { return }
            handleText(Array(text.utf8))
        case .binary:
            guard state == .open else { return }
            sendMessage(Envelope.error(ref: nil, ClientMessageDecoding.invalidMessage(
                "Send messages as text frames holding one JSON object; binary messages are not read.")))
        case .ping(let payload):
            connection.write(WebSocketFrameEncoder.frame(opcode: .pong, payload: payload))
        case .pong:
            break
        case .close(let code, _):
            peerClosed(code: code)
        }
    }

    private func handleText(_ text: [UInt8]) {
        switch store.decodeClientMessage(text) {
        case .invalid(let ref, let error):
            sendMessage(Envelope.error(ref: ref, error))
        case .resync:
            let (message, _) = store.fanout.catchUp(channel, from: nil)
            if let message { send(message) }
        case .action(let ref, let id, let fingerprint, let action):
            actionsInFlight += 1
            if actionsInFlight >= Self.maxActionsInFlight { connection.stopReading() }
            if let id {
                let lookup = store.idempotency.begin(id, fingerprint: fingerprint) { [self] outcome in
                    acknowledged(ref: ref, version: outcome.version)
                }
                switch lookup {
                case .new: break
                case .waiting: return
                case .replay(let outcome): return acknowledged(ref: ref, version: outcome.version)
                case .conflict:
                    actionsInFlight -= 1
                    return sendMessage(Envelope.error(ref: ref, APIError(
                        status: 422, code: "idempotency_key_reused",
                        message: "This id was used for a different action; use a new id for a new action.")))
                }
            }
            let loop = context.loop
            let cache = store.idempotency
            action.submit { [self] reply in
                loop.execute { [self] in
                    if let id { cache.complete(id, with: .reduced(reply)) }
                    acknowledged(ref: ref, version: reply.version)
                }
            }
        }
    }

    private func acknowledged(ref: String?, version: UInt64) {
        actionsInFlight -= 1
        guard state == .open else { return }
        sendMessage(Envelope.ack(ref: ref, version: version))
        if actionsInFlight == Self.maxActionsInFlight - 1 { connection.startReading() }
    }

    func sendMessage(_ json: [UInt8]) {
        connection.write(WebSocketFrames.text(json))
    }

    /// The peer's Close (§5.5.1): echo it and close, or, if we sent ours first, this completes the handshake.
    private func peerClosed(code: UInt16?) {
        Log.shared.debug("ws \(store.name) closed by the client (code \(code.map(String.init) ?? "none"))")
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
        Log.shared.info("ws \(store.name) failed: close \(failure.closeCode.rawValue) (\(failure.reason))")
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
