// libFuzzer target for what the server reads from a request before any store sees it: action bodies (`POST
// /stores/{name}/actions`, one Flux Standard Action or a batch), WebSocket client messages (`/ws` and a store's
// socket), request-targets (route and store-name matching, query parameters of every endpoint) and SSE's
// `Last-Event-ID`. Linked with the StatehouseServer and DemoReducers modules by scripts/fuzz, and StatehouseClient for
// its percent-encoder (what the client and CLI write, the server must read back).
//
// Input: byte 0 picks the mode (its value mod 3) and byte 1 the demo reducer (mod 4: Counter, TodoList, Search,
// Ticker); the rest is the text. Every error must be an ``APIError`` with a code of `APIError.allCodes`, a 4xx status,
// a one-line message, and a body that parses as `{"error":{"code","message"}}` with the same strings.
// - 0, an action body: `TypedStore.prepare` decodes it twice (the second time the per-reducer caches of bodies and
//   payloadless actions may answer) with the same outcome; decoded actions written as FSAs (the inverse mapping)
//   decode to the same actions; an error is 400.
// - 1, a WebSocket text message, read as a session reads it: JSON, the common fields (``ClientMessageHeader``), then
//   an `action` through ``ClientMessageDecoding`` (its answer keeps the message's `ref`) or a `subscribe` through
//   ``StreamRequest``; errors are 400 `invalid_message` or `invalid_query`.
// - 2, `METHOD target` (a method is a token, as llhttp delivers it) and optionally a line feed and a `Last-Event-ID`
//   value: the two ways of splitting a target give the same path and query; the route is matched (404, 405 with
//   `Allow`, or 400 `invalid_store_name`); a store's name, percent-encoded again, matches the same route; the query's
//   parameters, percent-encoded again, read back the same; the query is read as each endpoint reads it (reads,
//   streams, actions' wait, `/log`, `access_token`), errors 400 `invalid_query`; a `Last-Event-ID` position prints and
//   parses back to itself.

@testable import DemoReducers
@testable import HTTP1
@testable import JSON
@testable import Statehouse
@testable import StatehouseClient
@testable import StatehouseServer
@testable import WebSocket

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWire(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 1 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
    switch (data[0] % 3, data[1] % 4) {
    case (0, 0): checkBody(input, Counter.self)
    case (0, 1): checkBody(input, TodoList.self)
    case (0, 2): checkBody(input, Search.self)
    case (0, _): checkBody(input, Ticker.self)
    case (1, 0): checkMessage(input, Counter.self)
    case (1, 1): checkMessage(input, TodoList.self)
    case (1, 2): checkMessage(input, Search.self)
    case (1, _): checkMessage(input, Ticker.self)
    default: checkRequestTarget(input)
    }
    return 0
}

// MARK: - Action bodies

/// The actions `prepare` bound, or its error.
private func prepared<R: ServableReducer>(_ body: [UInt8], _: R.Type, _ decoded: DecodedActions<R.Action>)
    -> Result<[R.Action], APIError>
{
    var actions: [R.Action] = []
    let result = TypedStore<R>.prepare(actionJSON: body, decoded: decoded) { leading, last in
        actions = Array(leading) + [last]
        return PreparedAction { _, _ in }
    }
    return result.map { _ in actions }
}

private func checkBody<R: ServableReducer>(_ body: [UInt8], _ reducer: R.Type) where R.Action: Equatable {
    let decoded = DecodedActions<R.Action>()
    let first = prepared(body, reducer, decoded)
    let second = prepared(body, reducer, decoded)
    switch (first, second) {
    case (.success(let actions), .success(let again)):
        fuzzCheck(actions == again, "a cached decoding differs: \(actions) then \(again)")
        for action in actions {
            guard let fsa = FluxStandardActionEncoding.encode(action) else {
                return fuzzCheck(false, "\(action) does not write as an FSA")
            }
            guard case .success(let back) = prepared(fsa, reducer, DecodedActions<R.Action>()) else {
                return fuzzCheck(false, "the FSA \(fuzzShow(fsa)) of \(action) does not decode")
            }
            fuzzCheck(back == [action], "the FSA \(fuzzShow(fsa)) decodes to \(back), not \(action)")
        }
    case (.failure(let error), .failure(let again)):
        fuzzCheck(error == again, "a second decoding fails otherwise: \(error) then \(again)")
        fuzzCheckAPIError(error, statuses: [400])
    default:
        fuzzCheck(false, "decoding twice gives \(first) then \(second)")
    }
}

// MARK: - WebSocket client messages

private func checkMessage<R: ServableReducer>(_ text: [UInt8], _: R.Type) {
    guard let value = try? JSONValue(parsing: text), let object = value.objectValue else { return }
    let header: ClientMessageHeader
    do {
        header = try ClientMessageHeader(object)
    } catch {
        fuzzCheck(!error.message.contains("\n"), "a header problem spans lines: \(error.message)")
        // A store's socket lets the store's decoder explain a mistyped field.
        checkActionMessage(object, R.self, ref: nil)
        return
    }
    switch header.type {
    case "subscribe":
        do {
            let request = try StreamRequest(header.streamQuery)
            if let path = request.channel.path {
                fuzzCheck(!path.tokens.isEmpty, "an empty path is kept instead of meaning the whole state")
            }
        } catch {
            fuzzCheckAPIError(error, statuses: [400], codes: ["invalid_query"])
        }
    default:
        checkActionMessage(object, R.self, ref: header.ref)
    }
}

private func checkActionMessage<R: ServableReducer>(_ object: JSONObject, _: R.Type, ref: String?) {
    let payloadless = PayloadlessActions<R.Action>()
    let message = ClientMessageDecoding.decode(object, actionTypes: R.actionTypes, payloadless: payloadless) { _ in
        PreparedAction { _, _ in }
    }
    switch message {
    case .action(let answerRef, let id, let fingerprint, let wait, _):
        fuzzCheck(answerRef == ref, "the answer's ref \(String(describing: answerRef)) is not the message's")
        fuzzCheck(id != nil || fingerprint == 0, "an action without id has a fingerprint")
        if case .settled(let timeout) = wait {
            fuzzCheck(timeout >= .zero && timeout <= .milliseconds(ActionWait.maxTimeoutMs), "timeout \(timeout)")
        }
    case .invalid(_, let error):
        fuzzCheckAPIError(error, statuses: [400])
    }
}

// MARK: - Request-targets and queries

private func checkRequestTarget(_ input: [UInt8]) {
    let line = input.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false)
    let requestLine = line[0]
    let lastEventID = line.count > 1 ? String(decoding: line[1], as: UTF8.self) : nil
    guard let space = requestLine.firstIndex(of: 0x20) else { return }
    // llhttp delivers only the methods it knows: tokens (RFC 9110 §9.1), never control characters.
    guard requestLine[..<space].allSatisfy(WebSocketClientHandshake.isTokenByte) else { return }
    let method = String(decoding: requestLine[..<space], as: UTF8.self)
    let targetBytes = Array(requestLine[(space + 1)...])
    let target = targetBytes.withUnsafeBufferPointer { RequestTarget(bytes: $0) }
    let again = RequestTarget(target.target)
    fuzzCheck(target.path == again.path && target.query == again.query,
        "the two splits of \(target.target.debugDescription) differ: \(target) and \(again)")
    checkRoute(method: method, path: target.path)
    checkQuery(QueryParameters(target.query), lastEventID: lastEventID)
    if let lastEventID, let position = StreamRequest.position(lastEventID) {
        let printed = "\(position.epoch)-\(position.version)"
        fuzzCheck(StreamRequest.position(printed) == position, "Last-Event-ID \(printed.debugDescription) differs")
    }
}

private func checkRoute(method: String, path: String) {
    let route: Route
    do {
        route = try Route.match(method: method, path: path)
    } catch {
        let codes: Set<String> = ["invalid_store_name", "not_found", "method_not_allowed"]
        fuzzCheckAPIError(error, statuses: [400, 404, 405], codes: codes)
        if error.status == 405 {
            fuzzCheck(error.fields.contains { $0.name == "Allow" }, "a 405 without Allow for \(method) \(path)")
        }
        return
    }
    guard let name = storeName(of: route) else { return }
    // The name encoded byte by byte, in the path where it was: the same route.
    let segments = Array(path.utf8).split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    guard segments.count >= 3 else { return fuzzCheck(false, "store route \(route) from \(path.debugDescription)") }
    let encoded = HTTPExchange.percentEncoded(name)
    let rebuilt = ([segments[0], segments[1], encoded] + segments.dropFirst(3)).joined(separator: "/")
    let reread = try? Route.match(method: method, path: rebuilt)
    fuzzCheck(reread == route, "\(rebuilt.debugDescription) matches \(String(describing: reread)), not \(route)")
    if ServerConfiguration.isValidStoreName(name) {
        fuzzCheck(!name.isEmpty && name.utf8.count <= 64 && name != "." && name != "..", "valid name \(name)")
    }
}

private func storeName(of route: Route) -> String? {
    switch route {
    case .readStore(let name), .putStore(let name), .deleteStore(let name), .postAction(let name), .reset(let name),
        .webSocket(let name), .events(let name), .log(let name):
        name
    default:
        nil
    }
}

private func checkQuery(_ query: QueryParameters, lastEventID: String?) {
    fuzzCheck(query["access_token"] == nil, "access_token is left among the parameters")
    // Every name and value percent-encoded byte by byte and read again: the same parameters.
    let names = query.unknown([])
    let token = query.accessToken.map { [(name: "access_token", value: $0)] } ?? []
    let pairs = names.map { (name: $0, value: query[$0] ?? "") } + token
    let encoded = pairs.map { HTTPExchange.percentEncoded($0.name) + "=" + HTTPExchange.percentEncoded($0.value) }
    let reread = QueryParameters(encoded.joined(separator: "&"))
    fuzzCheck(reread.unknown([]) == names && names.allSatisfy { reread[$0] == query[$0] }
        && reread.accessToken == query.accessToken,
        "the query's parameters \(pairs) read back otherwise")
    let invalidQuery: Set<String> = ["invalid_query"]
    do {
        let read = try ReadRequest(query)
        fuzzCheck((0...600_000).contains(read.timeoutMs), "read timeout \(read.timeoutMs)")
        if read.at != nil { fuzzCheck(query.unknown(["at"]).isEmpty, "at= with other parameters") }
    } catch {
        fuzzCheckAPIError(error, statuses: [400], codes: invalidQuery)
    }
    do {
        _ = try StreamRequest(query, lastEventID: lastEventID)
    } catch {
        fuzzCheckAPIError(error, statuses: [400], codes: invalidQuery)
    }
    do {
        _ = try ActionWait(query)
    } catch {
        fuzzCheckAPIError(error, statuses: [400], codes: invalidQuery)
    }
    do {
        let log = try LogRequest(query)
        fuzzCheck((1...10_000).contains(log.limit) && log.since <= UInt64(Int64.max), "log request \(log)")
    } catch {
        fuzzCheckAPIError(error, statuses: [400], codes: invalidQuery)
    }
}
