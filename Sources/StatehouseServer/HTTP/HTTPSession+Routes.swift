import HTTP1

/// Routing: each delivered request goes to the concern that answers it (``Route`` matches method and path), after
/// the access checks (+Access).
extension HTTPSession {
    /// Answers one complete request (not an upgrade).
    func dispatch(_ request: HTTPRequest) {
        context.loop.assertInLoop()
        let headOnly = request.method == "HEAD"
        guard checkOrigin(request) else { return }
        let route: Route
        do {
            route = try Route.match(method: request.method, path: request.path)
        } catch {
            send(error: error, keepAlive: request.keepAlive, headOnly: headOnly)
            return
        }
        guard let access = authorize(request, route) else { return }
        switch route {
        case .health:
            send(Responses.json(200, Array(#"{"status":"ok"}"#.utf8)), keepAlive: request.keepAlive, headOnly: headOnly)
        case .clientScript:
            send(ClientScript.response(ifNoneMatch: request.fields["If-None-Match"]), keepAlive: request.keepAlive, headOnly: headOnly)
        case .metrics:
            serveMetrics(request)
        case .inspector(let file):
            serveInspector(file, request)
        case .inspectorOverview:
            serveInspectorOverview(request)
        case .listStores:
            let visible = context.stores.all.filter { access.allows(.read, on: $0.key) }
            send(Responses.json(200, Self.storeList(visible)), keepAlive: request.keepAlive, headOnly: headOnly)
        case .readStore(let name):
            guard let store = store(named: name, request) else { return }
            read(request, from: store)
        case .putStore(let name):
            putStore(name, request)
        case .deleteStore(let name):
            deleteStore(name, request)
        case .events(let name):
            guard let store = store(named: name, request) else { return }
            streamEvents(request, from: store)
        case .log(let name):
            guard let store = store(named: name, request) else { return }
            readLog(request, from: store)
        case .postAction(let name):
            guard let store = store(named: name, request) else { return }
            post(request, to: store)
        case .reset(let name):
            guard let store = store(named: name, request) else { return }
            reset(request, store)
        case .webSocket, .multiplexed:
            // A plain GET without a valid Upgrade: say what a WebSocket handshake needs.
            if case .webSocket(let name) = route, store(named: name, request) == nil { return }
            let error: APIError
            if case .failure(let problem) = Self.handshake(request) { error = problem } else { error = .upgradeRequired }
            send(error: error, keepAlive: request.keepAlive, headOnly: headOnly)
        }
    }

    func store(named name: String, _ request: HTTPRequest) -> HostedStore? {
        if let store = context.stores.store(named: name, memo: &storeMemo) { return store }
        send(error: .storeNotFound(name), keepAlive: request.keepAlive, headOnly: request.method == "HEAD")
        return nil
    }

    /// `{"stores":[{"name":…,"reducer":…,"version":…},…]}` sorted by name.
    private static func storeList(_ stores: [String: HostedStore]) -> [UInt8] {
        var items: [String] = []
        for name in stores.keys.sorted() {
            guard let store = stores[name] else { continue }
            let version = store.fanout.newest.version
            items.append(
                "{\"name\":\(JSONText.quoted(name)),\"reducer\":\(JSONText.quoted(store.reducerName)),\"version\":\(version)}")
        }
        return Array("{\"stores\":[\(items.joined(separator: ","))]}".utf8)
    }
}
