import JSON
import UVLoop

extension ClientConnection {
    /// Arms the backoff timer: after `ms`, the session connects again.
    func scheduleRetry(ms: Int) {
        let timer = retryTimer ?? LoopTimer(loop: loop)
        retryTimer = timer
        timer.start(delayMs: UInt64(ms)) { [weak self] in
            guard let self else { return }
            var outputs: [ClientSession.Output] = []
            session.retryTimerFired(into: &outputs)
            run(outputs)
        }
    }

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

