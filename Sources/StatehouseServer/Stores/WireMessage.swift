import JSON
import UVLoop

/// The JSON messages and bodies the server writes, with a fixed key order (docs/protocol.md). Not the mailbox item
/// of `StatehouseCore` (`Store.Envelope`).
enum WireMessage {
    /// `{"store":…,"version":…,"state":…}`: the body of `GET /stores/{name}` and `POST …/actions`.
    static func storeState(store: String, _ reply: StateReply, resumed: Bool? = nil) -> [UInt8] {
        let body = StoreStateBody(store: store, reply, resumed: resumed)
        return [UInt8](unsafeUninitializedCapacity: body.byteCount) { buffer, count in
            body.write(to: buffer.baseAddress!)
            count = body.byteCount
        }
    }

    /// `{"store":…,"version":…}`: the body of `POST …/actions` with `Prefer: return=minimal` (RFC 7240 §4.2).
    static func storeVersion(store: String, version: UInt64) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(32 + store.utf8.count)
        out.appendLiteral("{\"store\":")
        JSONValue.writeString(store, into: &out)
        out.appendLiteral(",\"version\":")
        out.appendDecimal(version)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// An error body that also carries the store's state:
    /// `{"error":{"code":…,"message":…},"store":…,"version":…,"state":…}`.
    static func withError(code: String, message: String, store: String, _ reply: StateReply) -> [UInt8] {
        let error = "{\"error\":{\"code\":\(JSONText.quoted(code)),\"message\":\(JSONText.quoted(message))},"
        return withState(error + "\"store\":\(JSONText.quoted(store)),\"version\":\(reply.version),\"state\":", reply)
    }

    /// The 408 body of a settle wait that timed out: the error and the version (and, `withState`, the state) at the
    /// deadline.
    static func settleTimeout(store: String, _ reply: StateReply, timeout: Duration, withState: Bool = true) -> [UInt8] {
        let ms = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        let error = APIError.settleTimeout(ms: ms)
        guard withState else {
            let text = "{\"error\":{\"code\":\(JSONText.quoted(error.code)),\"message\":\(JSONText.quoted(error.message))},"
                + "\"store\":\(JSONText.quoted(store)),\"version\":\(reply.version)}"
            return Array(text.utf8)
        }
        return withError(code: error.code, message: error.message, store: store, reply)
    }

    /// A stream `state` message:
    /// `{"type":"state","store":…,"epoch":…,"version":…[,"path":…][,"resumed":false],"state":…}`, in one write
    /// buffer (the state is copied once, straight into it).
    static func state(
        store: String, epoch: String, version: UInt64, path: JSONPointer?, resumed: Bool?, state: [UInt8]
    ) -> OutboundBuffer {
        var head: [UInt8] = []
        head.reserveCapacity(96 + store.utf8.count)
        head.appendLiteral("{\"type\":\"state\",\"store\":")
        JSONValue.writeString(store, into: &head)
        head.appendLiteral(",\"epoch\":")
        JSONValue.writeString(epoch, into: &head)
        head.appendLiteral(",\"version\":")
        head.appendDecimal(version)
        if let path {
            head.appendLiteral(",\"path\":")
            JSONValue.writeString(path.description, into: &head)
        }
        if let resumed { head.appendLiteral(resumed ? ",\"resumed\":true" : ",\"resumed\":false") }
        head.appendLiteral(",\"state\":")
        return OutboundBuffer(count: head.count + state.count + 1) { base in
            head.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            state.withUnsafeBytes { if let from = $0.baseAddress { (base + head.count).copyMemory(from: from, byteCount: $0.count) } }
            base.storeBytes(of: UInt8(ascii: "}"), toByteOffset: head.count + state.count, as: UInt8.self)
        }
    }

    /// A stream `patch` message (RFC 6902 ops turning the state at `base` into the state at `version`):
    /// `{"type":"patch","store":…,"epoch":…,"version":N,"base":M[,"path":…],"ops":[…]}`.
    static func patch(
        store: String, epoch: String, version: UInt64, base: UInt64, path: JSONPointer?, ops: [UInt8]
    ) -> [UInt8] {
        var head = "{\"type\":\"patch\",\"store\":\(JSONText.quoted(store)),\"epoch\":\"\(epoch)\",\"version\":\(version),\"base\":\(base)"
        if let path { head += ",\"path\":\(JSONText.quoted(path.description))" }
        return Array((head + ",\"ops\":").utf8) + ops + [UInt8(ascii: "}")]
    }

    /// `{"type":"deleted","store":…}`: the last message of a deleted store's streams.
    static func deleted(store: String) -> [UInt8] {
        Array("{\"type\":\"deleted\",\"store\":\(JSONText.quoted(store))}".utf8)
    }

    /// `{"type":"event","store":…,"event":{FSA}}`: an out-of-band event.
    static func event(store: String, _ fsa: [UInt8]) -> [UInt8] {
        Array("{\"type\":\"event\",\"store\":\(JSONText.quoted(store)),\"event\":".utf8) + fsa + [UInt8(ascii: "}")]
    }

    /// `{"type":"ack","ref":…,"version":…}`, with `"settled":true` when it answers a `"wait":"settled"` action and
    /// `"replayed":true` when an idempotency key replays it.
    static func ack(ref: String?, version: UInt64, settled: Bool = false, replayed: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(40 + (ref?.utf8.count ?? 0))
        out.appendLiteral("{\"type\":\"ack\"")
        if let ref {
            out.appendLiteral(",\"ref\":")
            JSONValue.writeString(ref, into: &out)
        }
        out.appendLiteral(",\"version\":")
        out.appendDecimal(version)
        if settled { out.appendLiteral(",\"settled\":true") }
        if replayed { out.appendLiteral(",\"replayed\":true") }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `{"type":"error","ref":…,"code":…,"message":…}` (no `ref` when the message had none). On `/ws`, an error
    /// about a subscription command starts with `"sub":"<id>"`; an error that reports the store's position (a settle
    /// wait that timed out or was cut short) ends with `"version":N`, and `"replayed":true` when an idempotency key
    /// replays it.
    static func error(
        ref: String?, _ error: APIError, sub: String? = nil, version: UInt64? = nil, replayed: Bool = false
    ) -> [UInt8] {
        var text = "{"
        if let sub { text += "\"sub\":\(JSONText.quoted(sub))," }
        text += "\"type\":\"error\""
        if let ref { text += ",\"ref\":\(JSONText.quoted(ref))" }
        text += ",\"code\":\(JSONText.quoted(error.code)),\"message\":\(JSONText.quoted(error.message))"
        if let version { text += ",\"version\":\(version)" }
        if replayed { text += ",\"replayed\":true" }
        return Array((text + "}").utf8)
    }

    /// `head` + the state's JSON + `}`.
    private static func withState(_ head: String, _ reply: StateReply) -> [UInt8] {
        var out = Array(head.utf8)
        out.reserveCapacity(out.count + reply.state.count + 1)
        out += reply.state
        out.append(UInt8(ascii: "}"))
        return out
    }
}
