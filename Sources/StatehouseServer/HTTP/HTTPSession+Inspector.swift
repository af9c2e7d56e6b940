import HTTP1

/// The inspector (docs/operations.md, *Inspector*): its static files, and `GET /inspector/overview` (and `HEAD`).
extension HTTPSession {
    /// `/inspector`, `/inspector/inspector.js`, `/inspector/inspector.css` (``InspectorAssets``).
    func serveInspector(_ file: InspectorAssets.File, _ request: HTTPRequest) {
        let response = InspectorAssets.asset(file).response(ifNoneMatch: request.fields["If-None-Match"])
        send(response, keepAlive: request.keepAlive, headOnly: request.method == "HEAD")
    }

    /// Asks every loop for its subscribers and connections, then answers with ``InspectorOverview``'s JSON.
    func serveInspectorOverview(_ request: HTTPRequest) {
        answerFromEveryLoop(request, read: InspectorOverview.Loop.read) { stores, loops in
            Responses.json(
                200, InspectorOverview.body(stores: stores, loops: loops),
                fields: [HTTPField(name: "Cache-Control", value: "no-store")])
        }
    }
}
