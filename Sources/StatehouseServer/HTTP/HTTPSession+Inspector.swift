import HTTP1
import UVLoop

/// The inspector (docs/operations.md, *Inspector*): its static files, and `GET /inspector/overview` (and `HEAD`).
extension HTTPSession {
    /// `/inspector`, `/inspector/inspector.js`, `/inspector/inspector.css` (``InspectorAssets``).
    func serveInspector(_ file: InspectorAssets.File, _ request: HTTPRequest) {
        let response = InspectorAssets.asset(file).response(ifNoneMatch: request.fields["If-None-Match"])
        send(response, keepAlive: request.keepAlive, headOnly: request.method == "HEAD")
    }

    /// Asks every loop for its subscribers and connections (each read on its own thread, no loop waits for another),
    /// then answers on this loop with ``InspectorOverview``'s JSON.
    func serveInspectorOverview(_ request: HTTPRequest) {
        context.loop.assertInLoop()
        let loop = context.loop
        let stores = context.stores.all
        let contexts = context.siblings.contexts
        let (keepAlive, headOnly) = (request.keepAlive, request.method == "HEAD")
        let gathering = LoopGathering<InspectorOverview.Loop>(expected: contexts.count) { [self] loops in
            loop.execute { [self] in
                let body = InspectorOverview.body(stores: stores, loops: loops)
                finish(Responses.json(200, body, fields: [HTTPField(name: "Cache-Control", value: "no-store")]),
                    keepAlive: keepAlive, headOnly: headOnly)
            }
        }
        for sibling in contexts {
            sibling.loop.execute { gathering.add(InspectorOverview.Loop.read(sibling, stores: stores)) }
        }
    }
}
