import HTTP1

/// Access checks of each request before it is answered; the rules are the policies' (Access/): this only answers
/// their refusals.
extension HTTPSession {
    /// The access of `request` to `route`, or nil after answering 401/403.
    func authorize(_ request: HTTPRequest, _ route: Route) -> Access? {
        guard context.auth != nil else { return .open }  // the usual case, without building a verdict
        switch AccessPolicy.check(context.auth, request, route) {
        case .success(let access): return access
        case .failure(let error):
            send(error: error, keepAlive: request.keepAlive, headOnly: request.method == "HEAD")
            return nil
        }
    }

    /// The access of an already authorized request (no answer is sent).
    func authorize(silently request: HTTPRequest, _ route: Route) -> Access? {
        try? AccessPolicy.check(context.auth, request, route).get()
    }

    /// CORS: refuses an unlisted `Origin` (403), answers preflights; returns false when it answered.
    func checkOrigin(_ request: HTTPRequest) -> Bool {
        currentOrigin = nil
        guard context.cors != nil else { return true }  // the usual case, without building a verdict
        switch CORSPolicy.verdict(context.cors, request) {
        case .sameOrigin:
            return true
        case .allowed(let origin):
            currentOrigin = origin
            return true
        case .preflight(let origin, let response):
            currentOrigin = origin
            send(response, keepAlive: request.keepAlive, headOnly: false)
            return false
        case .refused(let error):
            send(error: error, keepAlive: request.keepAlive, headOnly: request.method == "HEAD")
            return false
        }
    }

    /// The CORS fields of a response to an allowed origin.
    var corsFields: [HTTPField] { currentOrigin.map { CORSPolicy.responseFields(origin: $0) } ?? [] }
}
