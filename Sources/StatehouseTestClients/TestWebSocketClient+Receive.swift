extension TestWebSocketClient {
    /// Waits for the next complete message or control frame.
    ///
    /// - Parameter timeout: how long to wait (default 5 s).
    /// - Returns: a text or binary message (fragments reassembled), or a ping, pong or close frame.
    /// - Throws: `TestClientError` on timeout (`isTimeout`), on EOF or reset before a message, or
    ///   when the server breaks RFC 6455 (see the type's documentation).
    public func receive(timeout: Duration = .seconds(5)) throws -> TestWebSocketMessage {
        try receiveLock.withLock {
            guard let message = try nextMessageLocked(deadline: .after(timeout)) else {
                let how = reader.sawReset ? "reset" : "closed (EOF)"
                let after = closeWasReceived ? "after its close frame" : "without a close frame"
                throw TestClientError("WebSocket connection \(how) by the server \(after)")
            }
            return message
        }
    }

    /// Waits for the next message, which must be text holding a JSON object.
    ///
    /// - Parameter timeout: how long to wait (default 5 s).
    /// - Returns: the parsed object, e.g. `["type": "state", "version": 0, ...]`.
    /// - Throws: `TestClientError` if the next message is not text (a ping, say: nothing is
    ///   skipped), is not a JSON object, or as `receive(timeout:)`.
    public func receiveJSON(timeout: Duration = .seconds(5)) throws -> [String: Any] {
        let message = try receive(timeout: timeout)
        guard case .text(let text) = message else {
            throw TestClientError("expected a text message with JSON, got \(message)")
        }
        return try JSONObject.parse(Array(text.utf8), context: "WebSocket text message")
    }

    /// Reads text messages until one parses to a JSON object that satisfies `predicate`;
    /// earlier text messages are discarded. Any other kind of message throws.
    ///
    /// - Parameters:
    ///   - timeout: overall time allowed (default 5 s).
    ///   - predicate: the condition, e.g. `{ $0["version"] as? Int == 3 }`.
    /// - Throws: `TestClientError` on timeout or as `receiveJSON(timeout:)`.
    public func receiveJSON(timeout: Duration = .seconds(5),
                            matching predicate: ([String: Any]) -> Bool) throws -> [String: Any] {
        let deadline = ContinuousClock.Instant.after(timeout)
        while true {
            let object = try receiveJSON(timeout: ContinuousClock.now.duration(to: deadline))
            if predicate(object) { return object }
        }
    }

    /// Reads until a close frame or the end of the connection, discarding other messages.
    ///
    /// - Parameter timeout: how long to wait (default 5 s).
    /// - Returns: the close code of the server's close frame; `nil` if the TCP connection ended
    ///   (EOF or reset) without a close frame, or the close frame carried no code.
    /// - Throws: `TestClientError` on timeout or a protocol violation by the server.
    public func receiveClose(timeout: Duration = .seconds(5)) throws -> UInt16? {
        let deadline = ContinuousClock.Instant.after(timeout)
        return try receiveLock.withLock {
            while let message = try nextMessageLocked(deadline: deadline) {
                if case .close(let code, _) = message { return code }
            }
            return nil
        }
    }

    /// Decodes frames from the buffer, reading more as needed, until one yields a message.
    /// Returns `nil` at EOF or reset. Caller holds `receiveLock`.
    private func nextMessageLocked(deadline: ContinuousClock.Instant) throws -> TestWebSocketMessage? {
        while true {
            if let (frame, count) = try WebSocketFrame.decode(reader.pending, maxPayload: Self.maxMessageBytes) {
                _ = reader.consume(count)
                if let message = try handle(frame) { return message }
                continue
            }
            guard try reader.fill(deadline: deadline) else {
                if reader.pending.isEmpty { return nil }
                throw TestClientError("connection ended inside a frame (\(reader.pending.count) bytes of it arrived)")
            }
        }
    }

    /// Applies one server frame: checks it (§5.1–§5.5), reassembles fragments (§5.4), and
    /// returns a message when one is complete. Caller holds `receiveLock`.
    private func handle(_ frame: WebSocketFrame) throws -> TestWebSocketMessage? {
        guard frame.maskingKey == nil else { throw TestClientError("server sent a masked frame (§5.1)") }
        guard frame.rsv == 0 else { throw TestClientError("server set RSV bits \(frame.rsv) without an extension (§5.2)") }
        if frame.isControl {
            guard frame.fin, frame.payload.count <= 125 else {
                throw TestClientError("server sent a fragmented or over-125-byte control frame (§5.5)")
            }
        }
        switch frame.opcode {
        case WebSocketFrame.Opcode.ping: return .ping(frame.payload)
        case WebSocketFrame.Opcode.pong: return .pong(frame.payload)
        case WebSocketFrame.Opcode.close: return try handleClose(frame.payload)
        case WebSocketFrame.Opcode.text, WebSocketFrame.Opcode.binary:
            guard partialMessage == nil else {
                throw TestClientError("server started a new message inside a fragmented one (§5.4)")
            }
            if frame.fin { return try complete(opcode: frame.opcode, payload: frame.payload) }
            partialMessage = (frame.opcode, frame.payload)
            return nil
        case WebSocketFrame.Opcode.continuation:
            guard var partial = partialMessage else {
                throw TestClientError("server sent a continuation frame with no message to continue (§5.4)")
            }
            partial.payload += frame.payload
            guard partial.payload.count <= Self.maxMessageBytes else {
                throw TestClientError("fragmented message exceeds \(Self.maxMessageBytes) bytes")
            }
            if !frame.fin {
                partialMessage = partial
                return nil
            }
            partialMessage = nil
            return try complete(opcode: partial.opcode, payload: partial.payload)
        default:
            throw TestClientError("server sent reserved opcode 0x\(String(frame.opcode, radix: 16)) (§5.2)")
        }
    }

    private func complete(opcode: UInt8, payload: [UInt8]) throws -> TestWebSocketMessage {
        guard opcode == WebSocketFrame.Opcode.text else { return .binary(payload) }
        guard let text = String(validating: payload, as: UTF8.self) else {
            throw TestClientError("server sent a text message that is not valid UTF-8 (§8.1)")
        }
        return .text(text)
    }

    /// Parses a close payload (§5.5.1) and echoes the code once if no close was sent yet.
    private func handleClose(_ payload: [UInt8]) throws -> TestWebSocketMessage {
        guard payload.count != 1 else { throw TestClientError("server sent a 1-byte close payload (§5.5.1)") }
        var code: UInt16?
        var reason = ""
        if payload.count >= 2 {
            code = UInt16(payload[0]) << 8 | UInt16(payload[1])
            guard let text = String(validating: payload.dropFirst(2), as: UTF8.self) else {
                throw TestClientError("server sent a close reason that is not valid UTF-8 (§5.5.1)")
            }
            reason = text
        }
        closeWasReceived = true
        if !closeSent(mark: true) {
            let echo: [UInt8] = code.map { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } ?? []
            try? sendFrame(opcode: WebSocketFrame.Opcode.close, payload: echo)
        }
        return .close(code: code, reason: reason)
    }
}
