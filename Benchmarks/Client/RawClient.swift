import JSON
import StatehouseClient
import UVLoop

/// What a minimal hand-written client of `/ws` does (docs/protocol.md, *One socket for many stores*): one
/// ``WebSocketClient``, an optional `{"type":"subscribe",…}` (`format` `patch`, as ``RemoteStore`` asks), then
/// actions written as text; every server message is parsed with `JSONValue(parsing:)` and handed on. No session logic:
/// no resume, no resend, no patch application, no decoding into the reducer's state.
///
/// Lifecycle (``Phase``):
/// ```
/// connecting ──101: subscribe sent──▶ subscribing ──its first state──▶ ready ──close()──▶ closing ──onEnd──▶ closed
///      │ (no subscription: ready at the 101)                                                               ▲
///      └──── the WebSocket ended, or an error message came: onFailure ─────────────────────────────────────┘
/// ```
///
/// ## Thread safety
/// Loop-confined: create it and call everything on its loop's thread; its callbacks run there. `@unchecked Sendable`
/// only so a reference can be carried into loop jobs.
final class RawClient: @unchecked Sendable {
    /// Where the client is (the diagram above).
    enum Phase { case connecting, subscribing, ready, closing, closed }

    let loop: EventLoop
    let store: String
    private let socket: WebSocketClient
    private let subscribes: Bool
    private(set) var phase = Phase.connecting
    /// Called once at `ready`, with the version of the first snapshot (nil without a subscription).
    var onReady: ((UInt64?) -> Void)?
    /// Each server message once `ready`: its members and the time it was parsed (``nowNs``).
    var onMessage: ((JSONObject, UInt64) -> Void)?
    /// Called at most once: the WebSocket ended before ``close(_:)``, or the server sent an `error` message.
    var onFailure: ((BenchError) -> Void)?
    private var onClosed: (() -> Void)?

    /// Connects to `/ws` at once; subscribes to `store` when `subscribing`.
    init(loop: EventLoop, endpoint: ServerEndpoint, store: String, subscribing: Bool) {
        loop.assertInLoop()
        self.loop = loop
        self.store = store
        subscribes = subscribing
        socket = WebSocketClient(
            loop: loop, endpoint: endpoint, path: "/ws", configuration: .init(pingIntervalMs: nil))
        // The socket lets go of these closures when it ends (WebSocketClient.finish), which breaks the cycle.
        socket.onOpen = { [self] in opened() }
        socket.onText = { [self] text in received(text) }
        socket.onEnd = { [self] ending in ended(ending) }
        socket.start()
    }

    /// Sends `{"type":"action","store":…,"ref":"<ref>","id":"<tag>-<ref>","action":{"type":"increment"}}`.
    func sendIncrement(ref: Int, tag: String) {
        loop.assertInLoop()
        socket.send(text: Array(
            #"{"type":"action","store":"\#(store)","ref":"\#(ref)","id":"\#(tag)-\#(ref)","action":{"type":"increment"}}"#
                .utf8))
    }

    /// Begins the closing handshake; `done` runs once TCP has closed.
    func close(_ done: @escaping () -> Void) {
        loop.assertInLoop()
        guard phase != .closed else { return done() }
        onClosed = done
        phase = .closing
        socket.close()
    }

    private func opened() {
        guard subscribes else {
            phase = .ready
            return ready(version: nil)
        }
        phase = .subscribing
        socket.send(text: Array(#"{"type":"subscribe","id":"s1","store":"\#(store)","format":"patch"}"#.utf8))
    }

    private func received(_ text: [UInt8]) {
        guard let object = try? JSONValue(parsing: text).objectValue else {
            return fail(BenchError("the server sent a message that is not a JSON object"))
        }
        let at = nowNs
        let type = object["type"]?.stringValue
        if type == "error" {
            return fail(BenchError("the server answered with an error: \(JSONValue.object(object))"))
        }
        switch phase {
        case .subscribing:
            guard type == "state", let version = object.version else { return }
            phase = .ready
            ready(version: version)
        case .ready:
            onMessage?(object, at)
        case .connecting, .closing, .closed:
            break
        }
    }

    private func ready(version: UInt64?) {
        let onReady = self.onReady
        self.onReady = nil
        onReady?(version)
    }

    private func ended(_ ending: WebSocketClient.Ending) {
        let wasClosing = phase == .closing
        phase = .closed
        if !wasClosing { fail(BenchError("the WebSocket ended: \(ending)")) }
        let onClosed = self.onClosed
        self.onClosed = nil
        onClosed?()
    }

    private func fail(_ error: BenchError) {
        let onFailure = self.onFailure
        self.onFailure = nil
        onReady = nil
        onFailure?(error)
    }
}

extension JSONObject {
    /// The message's `version`, when it is a non-negative integer.
    var version: UInt64? {
        guard let number = self["version"]?.numberValue?.intValue, number >= 0 else { return nil }
        return UInt64(number)
    }
}

extension RawClient {
    /// A raw client on `loop`, once `ready`: with the version of its first snapshot when `subscribing`.
    /// - Throws: ``BenchError`` when it could not connect or subscribe.
    static func connect(loop: EventLoop, endpoint: ServerEndpoint, store: String, subscribing: Bool)
        async throws(BenchError) -> (RawClient, UInt64?)
    {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<(RawClient, UInt64?), BenchError>, Never>) in
            loop.execute {
                let client = RawClient(loop: loop, endpoint: endpoint, store: store, subscribing: subscribing)
                client.onReady = { version in
                    client.onFailure = nil
                    continuation.resume(returning: .success((client, version)))
                }
                client.onFailure = { error in continuation.resume(returning: .failure(error)) }
            }
        }
        return try result.get()
    }

    /// Closes the client and returns once TCP has closed. Callable from any thread but the loop's.
    func shutDown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.execute { [self] in
                onFailure = nil
                onMessage = nil
                close { continuation.resume() }
            }
        }
    }
}
