import WebSocket

extension EchoConnection {
    /// Reads frames and answers each complete message in order, then fails the connection if the reader found a
    /// protocol violation (RFC 6455 §7.1.7) — the same rules as the Statehouse server's WebSocket session.
    func receivedFrames(_ bytes: UnsafeRawBufferPointer) {
        guard phase == .webSocket else { return }
        let result = reader.read(bytes)
        for message in result.messages {
            answer(message)
            guard phase == .webSocket else { return }
        }
        if let failure = result.failure { fail(failure) }
    }

    /// Text and binary are echoed as one unfragmented frame of the same type (§5.6); a Ping gets a Pong with the
    /// same application data (§5.5.2); an unsolicited Pong is ignored (§5.5.3); a Close is echoed (§5.5.1).
    private func answer(_ message: WebSocketMessage) {
        switch message {
        case .text(let text):
            var text = text
            let frame = text.withUTF8 { WebSocketFrameEncoder.frame(opcode: .text, payload: UnsafeRawBufferPointer($0)) }
            connection.write(frame)
        case .binary(let payload):
            connection.write(WebSocketFrameEncoder.frame(opcode: .binary, payload: payload))
        case .ping(let payload):
            connection.write(WebSocketFrameEncoder.frame(opcode: .pong, payload: payload))
        case .pong:
            break
        case .close(let code, _):
            peerClosed(code: code)
        }
    }

    /// The peer's Close: answer with a Close carrying the same code (none if it sent none; §5.5.1, §7.4), then
    /// close TCP once it is written. The server closes TCP first (§7.1.1).
    private func peerClosed(code: UInt16?) {
        let payload = code.map { WebSocketFrameEncoder.closePayload(code: WebSocketCloseCode(rawValue: $0), reason: "") }
        connection.write(WebSocketFrameEncoder.frame(opcode: .close, payload: payload ?? []))
        phase = .closed
        connection.closeAfterWrites()
    }

    /// Fails the connection (§7.1.7): a Close with the reader's code and reason, then TCP closes once it is written.
    private func fail(_ failure: WebSocketFailure) {
        let payload = WebSocketFrameEncoder.closePayload(code: failure.closeCode, reason: failure.reason)
        connection.write(WebSocketFrameEncoder.frame(opcode: .close, payload: payload))
        phase = .closed
        connection.closeAfterWrites()
    }
}
