import HTTP1
import WebSocket

extension HTTPSession {
    /// Answers one complete request (not an upgrade).
    func dispatch(_ request: HTTPRequest) {
        let headOnly = request.method == "HEAD"
        let route: Route
        do {
            route = try Route.match(method: request.method, path: request.path)
        } catch {
            send(error: error, keepAlive: request.keepAlive, headOnly: headOnly)
            return
        }
        switch route {
        case .health:
            send(Responses.json(200, Array(#"{"status":"ok"}"#.utf8)), keepAlive: request.keepAlive, headOnly: headOnly)
        case .listStores:
            respondLater(keepAlive: request.keepAlive, headOnly: headOnly) { [stores = context.stores] in
                await Responses.json(200, Self.storeList(stores))
            }
        case .readStore(let name):
            guard let store = store(named: name, request) else { return }
            respondLater(keepAlive: request.keepAlive, headOnly: headOnly) {
                Responses.json(200, Envelope.storeState(store: name, await store.read()))
            }
        case .postAction(let name):
            guard let store = store(named: name, request) else { return }
            post(request, to: store)
        case .reset(let name):
            guard let store = store(named: name, request) else { return }
            state = .busy
            let loop = context.loop
            store.reset { [self] reply in
                let body = Envelope.storeState(store: store.name, reply)
                loop.execute { [self] in finish(Responses.json(200, body), keepAlive: request.keepAlive, headOnly: false) }
            }
        case .webSocket(let name):
            // A plain GET without a valid Upgrade: say what a WebSocket handshake needs.
            guard store(named: name, request) != nil else { return }
            let error = Self.handshakeError(request) ?? APIError(
                status: 426, code: "upgrade_required", message: "This endpoint speaks WebSocket; send an Upgrade request.")
            send(error: error, keepAlive: request.keepAlive, headOnly: headOnly)
        }
    }

    func store(named name: String, _ request: HTTPRequest) -> (any HostedStore)? {
        if let store = context.stores[name] { return store }
        send(error: .storeNotFound(name), keepAlive: request.keepAlive, headOnly: request.method == "HEAD")
        return nil
    }

    private func post(_ request: HTTPRequest, to store: any HostedStore) {
        let wait: PostWait
        do {
            wait = try PostWait(QueryParameters(request.query))
        } catch {
            send(error: error, keepAlive: request.keepAlive, headOnly: false)
            return
        }
        let action: PreparedAction
        switch store.prepare(actionJSON: request.body) {
        case .failure(let error):
            send(error: error, keepAlive: request.keepAlive, headOnly: false)
            return
        case .success(let prepared):
            action = prepared
        }
        state = .busy
        let loop = context.loop
        let respond: @Sendable (HTTPResponse) -> Void = { [self] response in
            loop.execute { [self] in finish(response, keepAlive: request.keepAlive, headOnly: false) }
        }
        switch wait {
        case .reduced:
            action.submit { reply in respond(Responses.json(200, Envelope.storeState(store: store.name, reply))) }
        case .settled(let timeout):
            action.submitAndSettle(timeout) { outcome in
                switch outcome {
                case .settled(let reply):
                    respond(Responses.json(200, Envelope.storeState(store: store.name, reply)))
                case .timedOut(let reply):
                    respond(Responses.json(408, Envelope.settleTimeout(store: store.name, reply, timeout: timeout)))
                }
            }
        }
    }

    /// Runs `make` off the loop, then sends its response in order.
    private func respondLater(
        keepAlive: Bool, headOnly: Bool, _ make: @escaping @Sendable () async -> HTTPResponse
    ) {
        state = .busy
        let loop = context.loop
        Task {
            let response = await make()
            loop.execute { [self] in finish(response, keepAlive: keepAlive, headOnly: headOnly) }
        }
    }

    private func finish(_ response: HTTPResponse, keepAlive: Bool, headOnly: Bool) {
        guard state == .busy else { return }
        send(response, keepAlive: keepAlive, headOnly: headOnly)
        processNext()
    }

    /// `{"stores":[{"name":…,"reducer":…,"version":…},…]}` sorted by name.
    private static func storeList(_ stores: [String: any HostedStore]) async -> [UInt8] {
        var items: [String] = []
        for name in stores.keys.sorted() {
            guard let store = stores[name] else { continue }
            let version = await store.version()
            items.append(
                "{\"name\":\(JSONText.quoted(name)),\"reducer\":\(JSONText.quoted(store.reducerName)),\"version\":\(version)}")
        }
        return Array("{\"stores\":[\(items.joined(separator: ","))]}".utf8)
    }

    /// The RFC 6455 §4.2.1 problem with a would-be handshake, as an API error; nil when it is valid.
    static func handshakeError(_ request: HTTPRequest) -> APIError? {
        if request.versionMajor == 1, request.versionMinor < 1 {
            return APIError(
                status: 400, code: "invalid_websocket_handshake",
                message: "A WebSocket handshake needs HTTP/1.1 or later (RFC 6455 §4.1); send the request as HTTP/1.1.")
        }
        let fields = request.fields.map { (name: $0.name, value: $0.value) }
        switch WebSocketHandshake.validate(method: request.method, fields: fields) {
        case .success: return nil
        case .failure(let failure):
            return APIError(
                status: failure.status, code: failure.code, message: failure.message,
                fields: failure.extraFields.map { APIError.Field(name: $0.name, value: $0.value) })
        }
    }
}
