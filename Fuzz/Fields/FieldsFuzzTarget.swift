// libFuzzer target for what the server reads from a request's header fields once llhttp has parsed them: the bearer
// token (`Authorization`, `Sec-WebSocket-Protocol: bearer.<token>`, `?access_token=`) and the access check under an
// `auth` policy, the CORS verdict under a `cors` policy (`Origin`, preflights), the WebSocket opening handshake
// (RFC 6455 §4.2.1), `Prefer: return=minimal` (RFC 7240), `If-None-Match` (RFC 9110 §13.1.2), `Idempotency-Key` and
// `Last-Event-ID`. Linked with StatehouseServer by scripts/fuzz.
//
// Input: request bytes, fed to `HTTPRequestParser` (the server's own limits) whole; every request it delivers is read
// by each of those readers, and:
// - no reader traps; every refusal is an ``APIError`` the API documents, one line (``fuzzCheckAPIError``): 401/403
//   from the access check, 403 `origin_not_allowed` from CORS, 400/426/505 from the handshake;
// - the policy's own token, wherever the request carries it, is granted on every route (the policy grants it all);
//   a request without a token is refused with 401 on every route that needs one;
// - an allowed origin is never refused, an origin not listed always is;
// - an accepted handshake's `Sec-WebSocket-Accept` value is 28 bytes of base64 (a SHA-1);
// - an accepted `Idempotency-Key` is 1…255 printable ASCII bytes.

@testable import HTTP1
@testable import JSON
@testable import StatehouseServer

/// The policies of a server configured with one all-powerful token and one allowed origin.
private let secret = "0123456789abcdef0123"
private let configuration = try! ConfigurationLoader.parse(Array("""
    {"auth":[{"token":"\(secret)","scopes":["read","write","admin","metrics"]}],
     "cors":{"allowedOrigins":["https://app.example"]},"stores":[]}
    """.utf8), path: "fuzz.json")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFields(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let parser = HTTPRequestParser(limits: HTTPParserLimits(maxHeaderBytes: 16_384, maxBodyBytes: 4096))
    var events = parser.feed(UnsafeRawBufferPointer(start: data, count: size))
    events += parser.finish()
    for event in events {
        switch event {
        case .request(let request): check(request)
        case .upgrade(let request, _): check(request)
        default: break
        }
    }
    return 0
}

private func check(_ request: HTTPRequest) {
    let route = (try? Route.match(method: request.method, path: request.path)) ?? .listStores
    checkAccess(request, route)
    checkOrigin(request)
    switch HTTPSession.handshake(request) {
    case .success(let accept):
        fuzzCheck(accept.acceptValue.utf8.count == 28 && accept.acceptValue.hasSuffix("="), "accept \(accept.acceptValue)")
    case .failure(let error):
        fuzzCheckAPIError(error, statuses: [400, 426, 505])
    }
    _ = ReturnPreference(request.fields)
    if let tags = request.fields["If-None-Match"] { _ = HTTPSession.matches(tags, "\"e-1\"") }
    if let key = request.fields["Idempotency-Key"], IdempotencyGate.isValidKey(key) {
        fuzzCheck((1...255).contains(key.utf8.count) && key.utf8.allSatisfy { (0x20...0x7E).contains($0) }, "key \(key)")
    }
    if let id = request.fields["Last-Event-ID"], let position = StreamRequest.position(id) {
        fuzzCheck(StreamRequest.position("\(position.epoch)-\(position.version)") == position, "Last-Event-ID \(id)")
    }
}

private func checkAccess(_ request: HTTPRequest, _ route: Route) {
    let token = AccessPolicy.token(of: request)
    switch AccessPolicy.check(configuration.auth, request, route) {
    case .success:
        if AccessPolicy.requirement(route) != nil {
            fuzzCheck(token == secret, "granted with token \(String(describing: token)) on \(route)")
        }
    case .failure(let error):
        fuzzCheck(token != secret, "the policy's own token is refused on \(route): \(error)")
        fuzzCheck(token != nil || error.status == 401, "no token but \(error.status)")
        fuzzCheckAPIError(error, statuses: [401, 403])
    }
}

private func checkOrigin(_ request: HTTPRequest) {
    let origin = request.fields["Origin"]
    switch CORSPolicy.verdict(configuration.cors, request) {
    case .sameOrigin:
        fuzzCheck(origin == nil, "origin \(String(describing: origin)) counted as same-origin")
    case .allowed(let allowed), .preflight(let allowed, _):
        fuzzCheck(allowed == "https://app.example" && origin == allowed, "origin \(allowed) allowed")
    case .refused(let error):
        fuzzCheck(origin != "https://app.example", "the allowed origin is refused")
        fuzzCheckAPIError(error, statuses: [403], codes: ["origin_not_allowed"])
    }
}
