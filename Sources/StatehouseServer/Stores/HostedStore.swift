import StatehouseCore

/// What the API needs from a store, whatever its reducer: JSON in, JSON out.
///
/// ## Thread safety
/// Sendable; every method may be called from any thread. Replies run on the store's actor: hop to the loop before
/// touching a connection.
protocol HostedStore: AnyObject, Sendable {
    /// The store's name from the configuration.
    var name: String { get }
    /// The registered name of its reducer type, e.g. `"Counter"`.
    var reducerName: String { get }
    /// WebSocket subscribers of this store and the frames they are sent.
    var fanout: StoreFanout { get }

    /// Starts the store (its `bind()` effects) and the state broadcast. Call once before serving.
    func start() async
    /// The current version and state.
    func read() async -> StateReply
    /// The current version (no encoding).
    func version() async -> UInt64
    /// Decodes one Flux Standard Action from JSON bytes, ready to be submitted.
    func prepare(actionJSON: [UInt8]) -> Result<PreparedAction, APIError>
    /// Decodes one WebSocket client message (`{"type":"action","ref":…,"action":{…}}`).
    func decodeClientMessage(_ text: [UInt8]) -> ClientMessage
    /// Resets the store (FIFO with actions): effects cancelled, initial state restored, `bind()` restarted.
    /// `reply` runs on the store's actor with the state after the reset.
    func reset(reply: @escaping @Sendable (StateReply) -> Void)
}

/// A store's version with its state as JSON text.
struct StateReply: Sendable {
    var version: UInt64
    var state: [UInt8]
}

/// A decoded action bound to its store.
///
/// `submit` enqueues it at once (FIFO with every other sender) and calls `reply` on the store's actor right after
/// this action was reduced, after every observer saw the new state. `submitAndSettle` calls `reply` once the action
/// and every effect it started, transitively, have finished, or when `timeout` passes (the effects keep running).
struct PreparedAction: Sendable {
    let submit: @Sendable (_ reply: @escaping @Sendable (StateReply) -> Void) -> Void
    let submitAndSettle: @Sendable (_ timeout: Duration, _ reply: @escaping @Sendable (SettleOutcome) -> Void) -> Void
}

/// How a wait for settlement ended, with the state at that moment.
enum SettleOutcome: Sendable {
    case settled(StateReply)
    case timedOut(StateReply)
}

/// A WebSocket message from a client, decoded.
enum ClientMessage: Sendable {
    /// `{"type":"action","ref":"r1","action":{FSA}}`; `ref` is optional.
    case action(ref: String?, PreparedAction)
    /// Anything that cannot be acted on; `ref` when the message had a readable one.
    case invalid(ref: String?, APIError)
}

/// The JSON envelopes the server writes, with a fixed key order.
enum Envelope {
    /// `{"store":…,"version":…,"state":…}`: the body of `GET /stores/{name}` and `POST …/actions`.
    static func storeState(store: String, _ reply: StateReply) -> [UInt8] {
        withState("{\"store\":\(JSONText.quoted(store)),\"version\":\(reply.version),\"state\":", reply)
    }

    /// `{"type":"state","store":…,"version":…,"state":…}`: a WebSocket state message.
    static func stateMessage(store: String, _ reply: StateReply) -> [UInt8] {
        withState("{\"type\":\"state\",\"store\":\(JSONText.quoted(store)),\"version\":\(reply.version),\"state\":", reply)
    }

    /// The 408 body of a settle wait that timed out: the error and the state at the deadline,
    /// `{"error":{"code":"settle_timeout","message":…},"store":…,"version":…,"state":…}`.
    static func settleTimeout(store: String, _ reply: StateReply, timeout: Duration) -> [UInt8] {
        let ms = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        let message = "The action was reduced but its effects did not finish within \(ms) ms; they keep running. "
            + "This is the state now; raise timeout_ms or read the store later."
        let error = "{\"error\":{\"code\":\"settle_timeout\",\"message\":\(JSONText.quoted(message))},"
        return withState(error + "\"store\":\(JSONText.quoted(store)),\"version\":\(reply.version),\"state\":", reply)
    }

    /// `head` + the state's JSON + `}`.
    private static func withState(_ head: String, _ reply: StateReply) -> [UInt8] {
        var out = Array(head.utf8)
        out.reserveCapacity(out.count + reply.state.count + 1)
        out += reply.state
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `{"type":"event","store":…,"event":{FSA}}`: an out-of-band event.
    static func event(store: String, _ fsa: [UInt8]) -> [UInt8] {
        Array("{\"type\":\"event\",\"store\":\(JSONText.quoted(store)),\"event\":".utf8) + fsa + [UInt8(ascii: "}")]
    }

    /// `{"type":"ack","ref":…,"version":…}`.
    static func ack(ref: String?, version: UInt64) -> [UInt8] {
        let refPart = ref.map { ",\"ref\":\(JSONText.quoted($0))" } ?? ""
        return Array("{\"type\":\"ack\"\(refPart),\"version\":\(version)}".utf8)
    }

    /// `{"type":"error","ref":…,"code":…,"message":…}` (no `ref` when the message had none).
    static func error(ref: String?, _ error: APIError) -> [UInt8] {
        let refPart = ref.map { ",\"ref\":\(JSONText.quoted($0))" } ?? ""
        return Array(
            "{\"type\":\"error\"\(refPart),\"code\":\(JSONText.quoted(error.code)),\"message\":\(JSONText.quoted(error.message))}"
                .utf8)
    }
}
