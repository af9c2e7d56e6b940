extension ClientSession {
    /// Watches `store` (its projection at `path`, an RFC 6901 pointer, when given). Returns the key that names it in
    /// ``Output``s; the `subscribe` goes out now when live, else on the next connection.
    package mutating func subscribe(store: String, path: String?, into outputs: inout [Output]) -> Int {
        let key = nextKey
        nextKey += 1
        let subscription = Subscription(store: store, path: path)
        subscriptions[key] = subscription
        if phase == .live { outputs.append(.write(Self.subscribeMessage(key: key, subscription))) }
        return key
    }

    /// Stops watching; nothing more is reported for `key`.
    package mutating func unsubscribe(key: Int, into outputs: inout [Output]) {
        guard let subscription = subscriptions.removeValue(forKey: key) else { return }
        if phase == .live, subscription.failure == nil {
            outputs.append(.write(Self.controlMessage("unsubscribe", key: key)))
        }
        reportStatus(into: &outputs)
    }

    /// A gap in `key`'s version chain: ask for a snapshot (once) and ignore patches until it comes.
    mutating func resync(key: Int, into outputs: inout [Output]) {
        guard var subscription = subscriptions[key], !subscription.resyncing else { return }
        subscription.resyncing = true
        subscriptions[key] = subscription
        if phase == .live { outputs.append(.write(Self.controlMessage("resync", key: key))) }
        reportStatus(into: &outputs)
    }
}
