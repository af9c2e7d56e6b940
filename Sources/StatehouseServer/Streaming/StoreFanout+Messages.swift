import JSON

extension StoreFanout.Shared {
    /// The message `channel` gets for the change to `version`, the newest (nil: nothing changed for it). Under the
    /// fanout's lock.
    mutating func changeMessage(_ channel: StreamChannel, version: UInt64) -> StreamMessage? {
        let epoch = history.epoch
        guard let path = channel.path else {
            switch channel.format {
            case .full:
                return snapshot(path: nil, resumed: nil)
            case .patch:
                let ops: [UInt8]
                if let newestPatch {
                    ops = newestPatch
                } else {
                    guard version > 0, let from = history.value(at: version - 1) else {
                        return snapshot(path: nil, resumed: nil)
                    }
                    ops = JSONPatch.serialize(JSONPatch.diff(from: from, to: history.newest()))
                }
                return StreamMessage(
                    kind: .patch, version: version, base: version - 1, epoch: epoch,
                    json: WireMessage.patch(store: storeName, epoch: epoch, version: version, base: version - 1, path: nil, ops: ops))
            }
        }
        guard let value = history.projection(at: version, path: path) else { return nil }
        let previous = projections[channel]
        if let previous, previous.value == value { return nil }
        projections[channel] = (version, value)
        if channel.format == .patch, let previous {
            let ops = JSONPatch.serialize(JSONPatch.diff(from: previous.value, to: value))
            return StreamMessage(
                kind: .patch, version: version, base: previous.version, epoch: epoch,
                json: WireMessage.patch(store: storeName, epoch: epoch, version: version, base: previous.version, path: path, ops: ops))
        }
        return snapshot(path: path, resumed: nil)
    }

    /// The message that brings a subscriber at `position` up to the newest version (nil when it holds it already),
    /// with that version. Under the lock. Shared: every subscriber of a channel catching up from one version gets the
    /// same message.
    mutating func catchUpMessage(_ channel: StreamChannel, from position: StreamPosition?) -> (StreamMessage?, UInt64) {
        let newest = history.newestVersion
        guard let position else { return (snapshot(path: channel.path, resumed: nil), newest) }
        guard history.covers(position.version, epoch: position.epoch) else {
            return (snapshot(path: channel.path, resumed: false), newest)
        }
        if position.version == newest { return (nil, newest) }
        let key = StreamMessageCache.CatchUpKey(channel: channel, base: position.version)
        if let kept = messages.catchUp(key) { return (kept, newest) }
        let message = patchToNewest(channel, from: position.version)
        message?.prepareForSharing()  // any loop may take it from the cache: framed before any of them sees it
        messages.keep(message, for: key)
        return (message, newest)
    }

    /// A `patch` message from `base` (held) to the newest for `channel` (nil when its value is the same). Under the
    /// fanout's lock.
    private mutating func patchToNewest(_ channel: StreamChannel, from base: UInt64) -> StreamMessage? {
        let newest = history.newestVersion
        if channel.path == nil, base &+ 1 == newest, let newestPatch {
            let epoch = history.epoch
            if newestPatch.count == 2 { return nil }  // `[]`: nothing changed
            let json = WireMessage.patch(store: storeName, epoch: epoch, version: newest, base: base, path: nil, ops: newestPatch)
            return StreamMessage(kind: .patch, version: newest, base: base, epoch: epoch, json: json)
        }
        guard let from = history.projection(at: base, path: channel.path),
            let to = history.projection(at: newest, path: channel.path)
        else { return snapshot(path: channel.path, resumed: false) }
        if from == to { return nil }
        let epoch = history.epoch
        let ops = JSONPatch.serialize(JSONPatch.diff(from: from, to: to))
        let json = WireMessage.patch(store: storeName, epoch: epoch, version: newest, base: base, path: channel.path, ops: ops)
        return StreamMessage(kind: .patch, version: newest, base: base, epoch: epoch, json: json)
    }

    /// The `state` message of the newest version seen through `path`, built once per version. Under the lock.
    private mutating func snapshot(path: JSONPointer?, resumed: Bool?) -> StreamMessage {
        let key = StreamMessageCache.SnapshotKey(path: path, resumed: resumed)
        if let kept = messages.snapshot(key) { return kept }
        let version = history.newestVersion
        let epoch = history.epoch
        let state = path == nil ? history.newestJSON : (history.projection(at: version, path: path) ?? .null).serialized()
        let message = StreamMessage(
            kind: .state, version: version, epoch: epoch,
            body: WireMessage.state(store: storeName, epoch: epoch, version: version, path: path, resumed: resumed, state: state))
        message.prepareForSharing()  // any loop may take it from the cache: framed before any of them sees it
        messages.keep(message, for: key)
        return message
    }
}
