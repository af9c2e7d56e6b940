// libFuzzer target for the Swift client's readers of what a server sends (module StatehouseClient), linked with
// StatehouseClient and DemoReducers by scripts/fuzz.
//
// Input: byte 0 picks the mode (its value mod 3), the rest is the text:
// - 0, a sequence of `/ws` messages from the server, one per line, fed to one ``ClientSession`` (no socket) that
//   watches `counter` (key 1) and `todos` at `/items` (key 2) and has sent two actions; a line `!` drops and reopens
//   the connection (every subscription and unacknowledged action is sent again), a line `!+` sends one more action.
//   Each reported state is also delivered to a ``StoreView`` of the demo reducer (`Counter`, `TodoList`). Checked:
//   - nothing traps, and every message the session writes is a JSON object;
//   - a reported snapshot is the `state` of the message just read (its `epoch` and `version` too), and a reported
//     patch state is that message's ops applied to the state reported before it (same epoch, its `base`); within an
//     epoch the versions reported for a key strictly increase; the held state is always the last one reported, so a
//     patch that fails or does not fit changes nothing (the session asks for a `resync` instead);
//   - a subscription that failed is reported failed once and reports nothing after; an action completes once, only
//     if it was pending, only from a message whose `ref` is its number exactly, with its own idempotency id;
//     `notSettled` only for `settle_timeout`/`shutting_down`; every error has a non-empty code;
//   - the status reported is the session's and never repeats itself;
//   - a `StoreView` shows the delivered version when the state decodes, else keeps the one it had.
// - 1, an HTTP/1.1 response (byte 1 picks the split as in the http target, then the bytes), read by
//   ``HTTPResponseParser`` as ``HTTPExchange`` and the WebSocket handshake read it (limits 1,024 head bytes and 2,048
//   body bytes), then ended: the result does not depend on the split (a 101's leftover taken with the bytes after
//   it); a response has a status 100–999 and a body within the limit; the refusal ``ClientConnection/refusal(_:)``
//   makes of it keeps the JSON error body's code and message exactly (else `http_<status>`), and a session ended with
//   it fails its pending actions exactly when the status is a 4xx but 408 and 429; a 101 passes the handshake check
//   only with the expected accept value.
// - 2, a server URL (the text as UTF-8) for ``ServerEndpoint/init(parsing:)``: when it parses, the host is not empty
//   (a reg-name, or an IPv6 literal of hex digits, `:` and `.`), the port is 1–65535, the base path is empty or starts
//   with `/` without ending with one, and its description parses back to the same endpoint; else the error has a
//   message.

import HTTP1
import JSON
import WebSocket
import DemoReducers
@testable import StatehouseClient

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClient(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 3 {
    case 0: checkSession(input)
    case 1: checkResponse(input)
    default: checkEndpoint(input)
    }
    return 0
}

/// A fixed jitter source: the same input always takes the same path.
private struct SteadyRandom: RandomNumberGenerator, Sendable {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}

/// What the harness saw reported for one subscription key.
private struct Seen {
    var epoch: String?
    var version: UInt64?
    var state: JSONValue?
    var failed = false
}

private func checkSession(_ bytes: [UInt8]) {
    var session = ClientSession(maxQueuedActions: 4, backoff: Backoff(), random: SteadyRandom())
    var outputs: [ClientSession.Output] = []
    let counter = session.subscribe(store: "counter", path: nil, into: &outputs)
    let todos = session.subscribe(store: "todos", path: "/items", into: &outputs)
    var ids: [UInt64: String] = [:]
    func send(_ n: Int, into outputs: inout [ClientSession.Output]) -> UInt64 {
        let id = "k\(n)"
        let body = Array(#"{"type":"increment"}"#.utf8)
        let settle = n % 2 == 0 ? 1000 : nil
        let seq = session.send(store: "counter", id: id, body: body, settleTimeoutMs: settle, into: &outputs)
        ids[seq] = id
        return seq
    }
    let first = [send(1, into: &outputs), send(2, into: &outputs)]
    session.start(into: &outputs)
    session.opened(into: &outputs)
    var seen: [Int: Seen] = [counter: Seen(), todos: Seen()]
    var completed: Set<UInt64> = []
    var lastStatus = ConnectionStatus.connecting
    let counterView = StoreView<Counter>(name: "counter")
    let todosView = StoreView<TodoList>(name: "todos")
    var sent = 2
    check(
        outputs, message: nil, pendingBefore: Set(first), seen: &seen, completed: &completed, lastStatus: &lastStatus,
        ids: ids)

    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
        var pendingBefore = Set(session.pending.map(\.seq))
        outputs = []
        var message: JSONObject?
        if line.elementsEqual("!".utf8) {
            session.ended(refusal: nil, into: &outputs)
            session.retryTimerFired(into: &outputs)
            session.opened(into: &outputs)
        } else if line.elementsEqual("!+".utf8) {
            sent += 1
            pendingBefore.insert(send(sent, into: &outputs))
        } else {
            if case .object(let object)? = try? JSONValue(parsing: Array(line)) { message = object }
            session.received(Array(line), into: &outputs)
        }
        check(
            outputs, message: message, pendingBefore: pendingBefore, seen: &seen, completed: &completed,
            lastStatus: &lastStatus, ids: ids)
        for output in outputs {
            guard case .state(let key, let epoch, let version, let state, let patch) = output else { continue }
            // What the view shows: its snapshot's version, and why the newest state did not decode.
            func shown() -> (UInt64?, ClientError?) {
                key == counter
                    ? counterView.watchers.withLock { ($0.snapshot?.version, $0.decodingFailure) }
                    : todosView.watchers.withLock { ($0.snapshot?.version, $0.decodingFailure) }
            }
            let view: any SubscriptionSink = key == counter ? counterView : todosView
            let (before, _) = shown()
            view.deliver(epoch: epoch, version: version, state: state, patch: patch)
            let (after, failure) = shown()
            if failure == nil {
                fuzzCheck(after == version, "the view of key \(key) shows \(String(describing: after)), not \(version)")
            } else {
                fuzzCheck(after == before, "an undecodable state changed the view of key \(key)")
            }
        }
        // The held state is the last reported one: nothing else changed it.
        for (key, subscription) in session.subscriptions where seen[key]?.state != nil {
            fuzzCheck(subscription.state == seen[key]?.state, "key \(key) holds a state that was never reported")
            fuzzCheck(subscription.version == seen[key]?.version && subscription.epoch == seen[key]?.epoch,
                "key \(key) holds a position that was never reported")
        }
    }
}

private func check(
    _ outputs: [ClientSession.Output], message: JSONObject?, pendingBefore: Set<UInt64>, seen: inout [Int: Seen],
    completed: inout Set<UInt64>, lastStatus: inout ConnectionStatus, ids: [UInt64: String]
) {
    for output in outputs {
        switch output {
        case .write(let bytes):
            guard case .object? = try? JSONValue(parsing: bytes) else {
                let text = String(decoding: bytes, as: UTF8.self)
                return fuzzCheck(false, "the session wrote a message that is not a JSON object: \(text)")
            }
        case .state(let key, let epoch, let version, let state, let patch):
            guard let message, var entry = seen[key] else {
                return fuzzCheck(false, "a state for key \(key) without a server message")
            }
            fuzzCheck(!entry.failed, "a state for key \(key) after its subscription failed")
            fuzzCheck(message["sub"]?.stringValue == "s\(key)", "a state for key \(key) from a message for another sub")
            fuzzCheck(message["epoch"]?.stringValue == epoch, "reported epoch \(epoch) is not the message's")
            fuzzCheck(ClientSession.version(message["version"]) == version, "version \(version) is not the message's")
            if entry.epoch == epoch, let old = entry.version {
                fuzzCheck(version > old, "key \(key) went from version \(old) to \(version) in epoch \(epoch)")
            }
            if let patch {
                fuzzCheck(message["type"]?.stringValue == "patch", "a patch state from a message of another type")
                fuzzCheck(entry.epoch == epoch && ClientSession.version(message["base"]) == entry.version,
                    "a patch applied off its base")
                guard let previous = entry.state, let expected = try? JSONPatch.apply(patch, to: previous) else {
                    return fuzzCheck(false, "a reported patch does not apply to the state reported before it")
                }
                fuzzCheck(expected == state, "a patch state is not its ops applied to the previous state")
                if let ops = message["ops"] {
                    fuzzCheck((try? JSONPatch.parse(ops)) == patch, "reported ops are not the message's")
                }
            } else {
                fuzzCheck(message["type"]?.stringValue == "state", "a snapshot from a message of another type")
                fuzzCheck((message["state"] ?? .null) == state, "a snapshot that is not the message's state")
            }
            entry.epoch = epoch
            entry.version = version
            entry.state = state
            seen[key] = entry
        case .event(let key, _):
            fuzzCheck(seen[key]?.failed == false, "an event for key \(key): no subscription, or a failed one")
        case .subscriptionFailed(let key, let error):
            fuzzCheck(seen[key]?.failed == false, "key \(key) failed twice, or was never subscribed")
            seen[key]?.failed = true
            fuzzCheck(!error.code.isEmpty, "a subscription failed with an empty code")
        case .completed(let seq, let result):
            fuzzCheck(pendingBefore.contains(seq) && !completed.contains(seq), "action \(seq) completed, not pending")
            completed.insert(seq)
            switch result {
            case .success(let ack):
                fuzzCheck(message?["type"]?.stringValue == "ack", "an action succeeded without an ack")
                fuzzCheck(message?["ref"]?.stringValue == String(seq), "action \(seq) acked by another ref")
                fuzzCheck(ack.id == ids[seq], "action \(seq) acked with id \(ack.id)")
                let sent = ClientSession.version(message?["version"])
                fuzzCheck(sent == ack.version, "an ack's version is not its message's")
            case .failure(let error):
                fuzzCheck(!error.code.isEmpty, "an action failed with an empty code")
                if message != nil {
                    fuzzCheck(message?["ref"]?.stringValue == String(seq), "action \(seq) failed by another ref")
                }
                if case .notSettled(let code, _, _) = error {
                    fuzzCheck(code == "settle_timeout" || code == "shutting_down", "notSettled with code \(code)")
                }
            }
        case .status(let status):
            fuzzCheck(status != lastStatus, "status \(status) reported twice in a row")
            lastStatus = status
        case .openTransport, .closeTransport, .scheduleRetry, .connectionRefused, .armAckTimer:
            break
        }
    }
}

private func checkResponse(_ input: [UInt8]) {
    guard let seed = input.first else { return }
    let bytes = Array(input.dropFirst())
    let limits = HTTPParserLimits(maxHeaderBytes: 1024, maxBodyBytes: 2048)
    func read(_ ranges: [Range<Int>]) -> HTTPResponseParseResult? {
        let parser = HTTPResponseParser(limits: limits)
        for range in ranges {
            guard let result = bytes[range].withUnsafeBytes({ parser.feed($0) }) else { continue }
            // A 101's leftover is the rest of that feed; the later bytes follow it on the connection.
            guard case .switchingProtocols(let head, let leftover) = result else { return result }
            return .switchingProtocols(head, leftover: leftover + bytes[range.upperBound...])
        }
        return parser.finish()
    }
    let whole = read(fuzzSplits(seed: 0, count: bytes.count))
    let split = read(fuzzSplits(seed: seed, count: bytes.count))
    fuzzCheck(whole == split, "the split changed the result: \(whole.debugDescription) vs \(split.debugDescription)")
    switch whole {
    case .response(let head, let body)?:
        fuzzCheck((100...999).contains(head.status), "status \(head.status)")
        fuzzCheck(body.count <= 2048, "a body of \(body.count) bytes passed the limit")
        checkRefusal(status: head.status, body: body)
    case .switchingProtocols(let head, _)?:
        fuzzCheck(head.status == 101, "switchingProtocols with status \(head.status)")
        let fields = head.fields.map { (name: $0.name, value: $0.value) }
        let key = "dGhlIHNhbXBsZSBub25jZQ=="  // RFC 6455 §1.3's example
        guard let handshake = try? WebSocketClientHandshake(path: "/ws", host: "127.0.0.1:8080", key: key) else {
            return fuzzCheck(false, "the fixed handshake does not build")
        }
        if (try? handshake.validate(status: head.status, fields: fields)) != nil {
            let accepted = fields.contains {
                $0.name.lowercased() == "sec-websocket-accept" && $0.value.contains(handshake.expectedAccept)
            }
            fuzzCheck(accepted, "a 101 without the expected accept value passed")
        }
    case .failure(let error)?:
        fuzzCheck(!error.message.isEmpty, "a parse failure without a message")
    case nil:
        fuzzCheck(false, "no result after finish()")
    }
}

private func checkRefusal(status: Int, body: [UInt8]) {
    let refusal = ClientConnection.refusal(.refused(status: status, body: body))
    guard case .server(let code, let message, let refusedStatus)? = refusal else {
        return fuzzCheck(false, "a refused handshake gave \(String(describing: refusal))")
    }
    fuzzCheck(refusedStatus == status, "the refusal's status is not the response's")
    if case .object(let object)? = try? JSONValue(parsing: body), case .object(let error)? = object["error"],
        let sentCode = error["code"]?.stringValue, let sentMessage = error["message"]?.stringValue
    {
        fuzzCheck(code == sentCode && message == sentMessage, "the refusal changed the server's error")
    } else {
        fuzzCheck(code == "http_\(status)" && !message.isEmpty, "a body without an error gave code \(code)")
    }
    var session = ClientSession(maxQueuedActions: 2, backoff: Backoff(), random: SteadyRandom())
    var outputs: [ClientSession.Output] = []
    _ = session.send(store: "counter", id: "k1", body: Array("{}".utf8), settleTimeoutMs: nil, into: &outputs)
    session.start(into: &outputs)
    outputs = []
    session.ended(refusal: refusal, into: &outputs)
    let final = (400..<500).contains(status) && status != 408 && status != 429
    fuzzCheck(session.pending.isEmpty == final, "status \(status) left \(session.pending.count) actions pending")
    fuzzCheck(outputs.contains { if case .scheduleRetry = $0 { true } else { false } }, "a refusal without a retry")
}

private func checkEndpoint(_ bytes: [UInt8]) {
    let url = String(decoding: bytes, as: UTF8.self)
    let endpoint: ServerEndpoint
    do {
        endpoint = try ServerEndpoint(parsing: url)
    } catch {
        return fuzzCheck(!error.message.isEmpty, "a parse error without a message")
    }
    fuzzCheck(!endpoint.host.isEmpty, "an empty host from \(url.debugDescription)")
    if endpoint.host.contains(":") {
        let literal = endpoint.host.utf8.allSatisfy {
            isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".")
        }
        fuzzCheck(literal, "the IPv6 host \(endpoint.host.debugDescription) holds more than hex digits, : and .")
    }
    fuzzCheck((1...65535).contains(endpoint.port), "port \(endpoint.port)")
    fuzzCheck(endpoint.basePath.isEmpty || (endpoint.basePath.hasPrefix("/") && !endpoint.basePath.hasSuffix("/")),
        "base path \(endpoint.basePath.debugDescription)")
    guard let again = try? ServerEndpoint(parsing: endpoint.description) else {
        return fuzzCheck(false, "the description \(endpoint.description.debugDescription) does not parse")
    }
    fuzzCheck(again == endpoint, "\(url.debugDescription) → \(endpoint) → \(again)")
}

private func isHexDigit(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
        UInt8(ascii: "A")...UInt8(ascii: "F"):
        true
    default: false
    }
}
