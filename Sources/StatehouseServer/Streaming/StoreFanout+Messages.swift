import JSONPatch

extension StoreFanout {
    /// The message `channel` gets for the change to `version` (nil: nothing changed for it). Under the lock.
    func changeMessage(_ channel: StreamChannel, version: UInt64, json: [UInt8]) -> StreamMessage? {
        let epoch = history.epoch
        guard let path = channel.path else {
            switch channel.format {
            case .full:
                return stateMessage(version: version, path: nil, resumed: nil, state: json)
            case .patch:
                guard version > 0, let from = history.value(at: version - 1), let to = history.value(at: version) else {
                    return stateMessage(version: version, path: nil, resumed: nil, state: json)
                }
                let ops = JSONPatch.serialize(JSONPatch.diff(from: from, to: to))
                return StreamMessage(
                    kind: .patch, version: version, base: version - 1, epoch: epoch,
                    json: Envelope.patch(store: storeName, epoch: epoch, version: version, base: version - 1, path: nil, ops: ops))
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
                json: Envelope.patch(store: storeName, epoch: epoch, version: version, base: previous.version, path: path, ops: ops))
        }
        return stateMessage(version: version, path: path, resumed: nil, state: value.serialized())
    }

    /// The message that brings a subscriber at `position` up to the newest version (nil when it holds it already),
    /// with that version. Under the lock.
    func catchUpMessage(_ channel: StreamChannel, from position: StreamPosition?) -> (StreamMessage?, UInt64) {
        let newest = history.newest.version
        let epoch = history.epoch
        guard let position else {
            return (snapshot(channel, version: newest, resumed: nil), newest)
        }
        guard history.covers(position.version, epoch: position.epoch),
            let from = history.projection(at: position.version, path: channel.path),
            let to = history.projection(at: newest, path: channel.path)
        else {
            return (snapshot(channel, version: newest, resumed: false), newest)
        }
        if position.version == newest || from == to { return (nil, newest) }
        let ops = JSONPatch.serialize(JSONPatch.diff(from: from, to: to))
        let json = Envelope.patch(
            store: storeName, epoch: epoch, version: newest, base: position.version, path: channel.path, ops: ops)
        return (StreamMessage(kind: .patch, version: newest, base: position.version, epoch: epoch, json: json), newest)
    }

    private func snapshot(_ channel: StreamChannel, version: UInt64, resumed: Bool?) -> StreamMessage {
        guard channel.path != nil else {
            return stateMessage(version: version, path: nil, resumed: resumed, state: history.newest.json)
        }
        let value = history.projection(at: version, path: channel.path) ?? .null
        return stateMessage(version: version, path: channel.path, resumed: resumed, state: value.serialized())
    }

    private func stateMessage(version: UInt64, path: JSONPointer?, resumed: Bool?, state: [UInt8]) -> StreamMessage {
        let json = Envelope.state(
            store: storeName, epoch: history.epoch, version: version, path: path, resumed: resumed, state: state)
        return StreamMessage(kind: .state, version: version, epoch: history.epoch, json: json)
    }
}
