import JSON

/// The client → server messages of `/ws` (docs/protocol.md, *One socket for many stores*), written by hand: keys in a
/// fixed order, strings escaped by the JSON module's one escaper.
extension ClientSession {
    static func subscribeMessage(key: Int, _ subscription: Subscription) -> [UInt8] {
        var out = Array(#"{"type":"subscribe","id":"#.utf8)
        JSONValue.writeString(subscriptionID(key), into: &out)
        out += #","store":"#.utf8
        JSONValue.writeString(subscription.store, into: &out)
        out += #","format":"patch""#.utf8
        if let path = subscription.path {
            out += #","path":"#.utf8
            JSONValue.writeString(path, into: &out)
        }
        if let epoch = subscription.epoch, let version = subscription.version, subscription.state != nil {
            out += #","epoch":"#.utf8
            JSONValue.writeString(epoch, into: &out)
            out += #","since":"#.utf8
            out += String(version).utf8
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `{"type":"<type>","id":"s<key>"}`: `unsubscribe` or `resync`.
    static func controlMessage(_ type: String, key: Int) -> [UInt8] {
        var out = Array(#"{"type":"#.utf8)
        JSONValue.writeString(type, into: &out)
        out += #","id":"#.utf8
        JSONValue.writeString(subscriptionID(key), into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    static func actionMessage(_ action: PendingAction) -> [UInt8] {
        var out = Array(#"{"type":"action","store":"#.utf8)
        JSONValue.writeString(action.store, into: &out)
        out += #","ref":""#.utf8
        out += String(action.seq).utf8
        out += #"","id":"#.utf8
        JSONValue.writeString(action.id, into: &out)
        if let timeout = action.settleTimeoutMs {
            out += #","wait":"settled","timeout_ms":"#.utf8
            out += String(timeout).utf8
        }
        out += #","action":"#.utf8
        out += action.body
        out.append(UInt8(ascii: "}"))
        return out
    }
}
