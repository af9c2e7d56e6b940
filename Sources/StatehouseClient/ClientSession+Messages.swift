import JSON

extension ClientSession {
    /// One text message from the server. Messages this client cannot read are ignored (a newer server may add types).
    package mutating func received(_ text: [UInt8], into outputs: inout [Output]) {
        guard phase == .live, case .object(let message)? = try? JSONValue(parsing: text) else { return }
        heardFromServer = true
        let key = message["sub"]?.stringValue.flatMap(Self.key(ofSubscriptionID:))
        switch message["type"]?.stringValue {
        case "state"?: if let key { receivedState(message, key: key, into: &outputs) }
        case "patch"?: if let key { receivedPatch(message, key: key, into: &outputs) }
        case "event"?:
            // Only for a subscription held and not failed (`nil == nil` let one of no key, or unsubscribed, through).
            if let key, let subscription = subscriptions[key], subscription.failure == nil, let event = message["event"] {
                outputs.append(.event(key: key, event))
            }
        case "deleted"?: if let key { fail(key: key, .storeDeleted(store: subscriptions[key]?.store ?? ""), into: &outputs) }
        case "ack"?: receivedAck(message, into: &outputs)
        case "error"?: receivedError(message, subscriptionKey: key, into: &outputs)
        default: break
        }
    }

    /// `"s12"` → 12: exactly the id ``subscriptionID(_:)`` wrote (not `"s012"` or `"s+12"`).
    static func key(ofSubscriptionID id: String) -> Int? {
        guard id.hasPrefix("s"), let key = Int(id.dropFirst()), subscriptionID(key) == id else { return nil }
        return key
    }

    private mutating func receivedState(_ message: JSONObject, key: Int, into outputs: inout [Output]) {
        guard var subscription = subscriptions[key], subscription.failure == nil,
            let epoch = message["epoch"]?.stringValue, let version = Self.version(message["version"])
        else { return }
        let state = message["state"] ?? .null
        if subscription.epoch == epoch, let held = subscription.version, version <= held, subscription.state != nil {
            // Not newer than what is shown: never go back, never repeat. (A resync at the same version ends here.)
            subscription.resyncing = false
            subscriptions[key] = subscription
            reportStatus(into: &outputs)
            return
        }
        subscription.epoch = epoch
        subscription.version = version
        subscription.state = state
        subscription.resyncing = false
        subscriptions[key] = subscription
        outputs.append(.state(key: key, epoch: epoch, version: version, state: state, patch: nil))
        reportStatus(into: &outputs)
    }

    private mutating func receivedPatch(_ message: JSONObject, key: Int, into outputs: inout [Output]) {
        guard var subscription = subscriptions[key], subscription.failure == nil, !subscription.resyncing else { return }
        guard let epoch = message["epoch"]?.stringValue, let version = Self.version(message["version"]),
            let base = Self.version(message["base"]), let opsValue = message["ops"],
            subscription.epoch == epoch, subscription.version == base, let state = subscription.state,
            let ops = try? JSONPatch.parse(opsValue), let next = try? JSONPatch.apply(ops, to: state)
        else {
            resync(key: key, into: &outputs)
            return
        }
        guard version > base else { return }
        subscription.version = version
        subscription.state = next
        subscriptions[key] = subscription
        outputs.append(.state(key: key, epoch: epoch, version: version, state: next, patch: ops))
    }

    private mutating func receivedAck(_ message: JSONObject, into outputs: inout [Output]) {
        guard let ref = message["ref"]?.stringValue, let version = Self.version(message["version"]),
            let id = pendingID(ref: ref)
        else { return }
        let ack = Ack(version: version, replayed: message["replayed"]?.boolValue ?? false, id: id)
        complete(ref: ref, with: .success(ack), into: &outputs)
    }

    private mutating func receivedError(_ message: JSONObject, subscriptionKey: Int?, into outputs: inout [Output]) {
        let code = message["code"]?.stringValue ?? "unknown_error"
        let text = message["message"]?.stringValue ?? "The server sent an error without a message."
        let error: ClientError
        if let version = Self.version(message["version"]), code == "settle_timeout" || code == "shutting_down" {
            // A settled action the server did apply (at `version`) but whose effects did not finish.
            error = .notSettled(code: code, message: text, version: version)
        } else {
            error = .server(code: code, message: text, status: nil)
        }
        if let ref = message["ref"]?.stringValue {
            complete(ref: ref, with: .failure(error), into: &outputs)
        } else if let subscriptionKey {
            fail(key: subscriptionKey, error, into: &outputs)
        }
    }

    /// The subscription ends for good: reported once, never sent again.
    private mutating func fail(key: Int, _ error: ClientError, into outputs: inout [Output]) {
        guard var subscription = subscriptions[key], subscription.failure == nil else { return }
        subscription.failure = error
        subscription.resyncing = false
        subscriptions[key] = subscription
        outputs.append(.subscriptionFailed(key: key, error))
        reportStatus(into: &outputs)
    }

    /// A JSON number that is a version: a non-negative integer that fits 64 bits.
    static func version(_ value: JSONValue?) -> UInt64? {
        guard case .number(let number)? = value else { return nil }
        return UInt64(number.text)
    }
}
