import HTTP1
import UVLoop

/// `GET /metrics` (and `HEAD`): Prometheus text exposition of the server's figures (`Metrics/`).
extension HTTPSession {
    /// Asks every loop for its figures (each read on its own thread, no loop waits for another), then answers on
    /// this loop.
    func serveMetrics(_ request: HTTPRequest) {
        context.loop.assertInLoop()
        let loop = context.loop
        let stores = context.stores.all
        let contexts = context.siblings.contexts
        let (keepAlive, headOnly) = (request.keepAlive, request.method == "HEAD")
        let gathering = LoopGathering<LoopFigures>(expected: contexts.count) { [self] loops in
            loop.execute { [self] in
                let body = ServerMetrics.exposition(
                    stores: stores, loops: loops, storage: context.durability?.database.writerFigures, process: .read())
                let response = HTTPResponse(
                    status: 200, fields: [HTTPField(name: "Content-Type", value: ServerMetrics.contentType)], body: body)
                finish(response, keepAlive: keepAlive, headOnly: headOnly)
            }
        }
        for sibling in contexts {
            sibling.loop.execute { gathering.add(LoopFigures.read(sibling, stores: stores)) }
        }
    }
}
