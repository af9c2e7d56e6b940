import JSON
import UVLoop

extension ClientConnection {
    /// Carries out the session's outputs, in order.
    func run(_ outputs: [ClientSession.Output]) {
        for output in outputs {
            switch output {
            case .openTransport: openTransport()
            case .write(let text): transport?.send(text: text)
            case .closeTransport:
                if let transport, transport.isOpen { transport.close() } else { transport?.abort() }
            case .scheduleRetry(let ms): scheduleRetry(ms: ms)
            case .status(let status): statusBoard.publish(status)
            case .state(let key, let epoch, let version, let state, let patch):
                sinks[key]?.deliver(epoch: epoch, version: version, state: state, patch: patch)
            case .event(let key, let event): sinks[key]?.deliver(event: event)
            case .subscriptionFailed(let key, let error): sinks.removeValue(forKey: key)?.end(error)
            case .completed(let seq, let result):
                ackDeadlines[seq] = nil
                completions.removeValue(forKey: seq)?(result)
            }
        }
    }

    private func scheduleRetry(ms: Int) {
        let timer = retryTimer ?? LoopTimer(loop: loop)
        retryTimer = timer
        timer.start(delayMs: UInt64(ms)) { [weak self] in
            guard let self else { return }
            var outputs: [ClientSession.Output] = []
            session.retryTimerFired(into: &outputs)
            run(outputs)
        }
    }
}

extension ClientConnection {
    /// A new transport to `/ws` with the configured fields (bearer token, origin).
    func openTransport() {
        transport?.abort()
        var fields: [(name: String, value: String)] = []
        if let token = configuration.token { fields.append((name: "Authorization", value: "Bearer \(token)")) }
        if let origin = configuration.origin { fields.append((name: "Origin", value: origin)) }
        let client = WebSocketClient(
            loop: loop, endpoint: endpoint, path: "/ws", requestFields: fields,
            configuration: configuration.transport)
        transport = client
        client.onOpen = { [weak self, weak client] in
            guard let self, let client, transport === client else { return }
            var outputs: [ClientSession.Output] = []
            session.opened(into: &outputs)
            run(outputs)
        }
        client.onText = { [weak self, weak client] text in
            guard let self, let client, transport === client else { return }
            var outputs: [ClientSession.Output] = []
            session.received(text, into: &outputs)
            run(outputs)
        }
        client.onEnd = { [weak self, weak client] ending in
            guard let self, let client, transport === client else { return }
            transport = nil
            var outputs: [ClientSession.Output] = []
            session.ended(refusal: Self.refusal(ending), into: &outputs)
            run(outputs)
            finishIfDone()
        }
        client.start()
    }

    /// The server's JSON error when it refused the opening handshake with an HTTP status.
    static func refusal(_ ending: WebSocketClient.Ending) -> ClientError? {
        guard case .refused(let status, let body) = ending else { return nil }
        if case .object(let object)? = try? JSONValue(parsing: body), case .object(let error)? = object["error"],
            let code = error["code"]?.stringValue, let message = error["message"]?.stringValue
        {
            return .server(code: code, message: message, status: status)
        }
        return .server(
            code: "http_\(status)", message: "The server answered the WebSocket handshake with HTTP \(status).",
            status: status)
    }
}

extension ClientConnection {
    /// Runs the ack sweep while any action has a deadline.
    func armAckSweep() {
        guard !ackDeadlines.isEmpty else { return }
        let timer = ackSweep ?? LoopTimer(loop: loop)
        guard ackSweep == nil else { return }
        ackSweep = timer
        let period = UInt64(max(10, min(configuration.ackTimeoutMs / 4, 1_000)))
        timer.start(delayMs: period, repeatMs: period) { [weak self] in self?.sweepAcks() }
    }

    private func sweepAcks() {
        let now = loop.now
        let expired = ackDeadlines.filter { $0.value <= now }.keys.sorted()
        var outputs: [ClientSession.Output] = []
        for seq in expired {
            ackDeadlines[seq] = nil
            session.ackTimedOut(seq: seq, afterMs: configuration.ackTimeoutMs, into: &outputs)
        }
        run(outputs)
        if ackDeadlines.isEmpty {
            ackSweep?.close()
            ackSweep = nil
        }
    }
}
