import HTTP1
import UVLoop

/// `GET /metrics` (and `HEAD`): Prometheus text exposition of the server's figures (`Metrics/`); and the way it and
/// the inspector's overview read every loop.
extension HTTPSession {
    func serveMetrics(_ request: HTTPRequest) {
        answerFromEveryLoop(request, read: LoopFigures.read) { [self] stores, loops in
            let body = ServerMetrics.exposition(
                stores: stores, loops: loops, storage: context.durability?.database.writerFigures, process: .read())
            return HTTPResponse(
                status: 200, fields: [HTTPField(name: "Content-Type", value: ServerMetrics.contentType)], body: body)
        }
    }

    /// Runs `read` on every loop of the server with the stores (each on its own thread, no loop waits for another),
    /// then answers `request` on this loop with `respond`'s response to the stores and every loop's value.
    func answerFromEveryLoop<Value: Sendable>(
        _ request: HTTPRequest, read: @escaping @Sendable (ServerContext, [String: HostedStore]) -> Value,
        respond: @escaping @Sendable ([String: HostedStore], [Value]) -> HTTPResponse
    ) {
        context.loop.assertInLoop()
        let loop = context.loop
        let stores = context.stores.all
        let contexts = context.siblings.contexts
        let (keepAlive, headOnly) = (request.keepAlive, request.method == "HEAD")
        let gathering = LoopGathering<Value>(expected: contexts.count) { [self] values in
            loop.execute { [self] in finish(respond(stores, values), keepAlive: keepAlive, headOnly: headOnly) }
        }
        for sibling in contexts {
            sibling.loop.execute { gathering.add(read(sibling, stores)) }
        }
    }
}
