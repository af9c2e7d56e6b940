import Foundation
import JSON

/// Client messages: `action`, `resync`, and on the multiplexed `/ws` also `subscribe` / `unsubscribe`.
extension WebSocketSession {
    /// The fields every client message may carry, read before the store-specific action decoding.
    private struct Header {
        var type: String?
        var ref: String?
        var store: String?
        var id: String?
        var path: String?
        var format: String?
        var epoch: String?
        var since: UInt64?

        /// What is wrong with a message's fields: one sentence naming the field and what it must be.
        struct Problem: Error {
            let message: String
        }

        /// The fields of `object` (null counts as absent).
        /// - Throws: ``Problem`` for the first field with the wrong JSON type.
        init(_ object: JSONObject) throws(Problem) {
            func string(_ key: String) throws(Problem) -> String? {
                switch object[key] {
                case nil, .null?: return nil
                case .string(let text)?: return text
                default: throw Problem(message: "\"\(key)\" must be a string.")
                }
            }
            (type, ref, store, id) = (try string("type"), try string("ref"), try string("store"), try string("id"))
            (path, format, epoch) = (try string("path"), try string("format"), try string("epoch"))
            switch object["since"] {
            case nil, .null?: since = nil
            case .number(let number)?:
                guard let value = UInt64(number.description) ?? UInt64(exactly: number.doubleValue) else {
                    throw Problem(message: Self.sinceProblem)
                }
                since = value
            default: throw Problem(message: Self.sinceProblem)
            }
        }

        private static let sinceProblem = "\"since\" must be a version: an integer from 0 to 2^64-1."
    }

    func handleText(_ text: [UInt8]) {
        context.loop.assertInLoop()
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            return reject(nil, "The message is not valid JSON (\(error)); send one JSON object per text message.")
        }
        guard let object = value.objectValue else {
            return reject(nil, "A message must be a JSON object with a \"type\".")
        }
        let header: Header
        do {
            header = try Header(object)
        } catch {
            // A field with the wrong type: on a store's socket the store's decoder explains (it names the field).
            guard let store = home else { return reject(nil, error.message) }
            return handleAction(object, in: store)
        }
        switch header.type {
        case "action":
            guard let store = target(header) else { return }
            handleAction(object, in: store)
        case "resync":
            guard let subscription = subscriptions[header.id ?? ""] else {
                return reject(nil, "No subscription \(JSONText.quoted(header.id ?? "")) to resync; give the id you subscribed with.")
            }
            subscription.resync()
        case "subscribe":
            subscribe(header)
        case "unsubscribe":
            guard let id = header.id, home == nil, let subscription = subscriptions.removeValue(forKey: id) else {
                return reject(nil, "Unsubscribe takes the id of a subscription made on /ws.")
            }
            subscription.end()
            sendMessage(Array("{\"type\":\"unsubscribed\",\"sub\":\(JSONText.quoted(id))}".utf8))
        default:
            // Unknown or missing type: the store's decoder gives the standard invalid_message answer.
            guard let store = home else {
                return reject(nil, "Unknown message type; send action, subscribe, unsubscribe or resync.")
            }
            handleAction(object, in: store)
        }
    }

    /// The store an action goes to: `store` on `/ws` (required), or the connection's own store.
    private func target(_ header: Header) -> HostedStore? {
        guard let name = header.store ?? home?.name else {
            reject(header.ref, "On /ws an action names its \"store\".")
            return nil
        }
        guard let store = context.stores[name] else {
            sendMessage(WireMessage.error(ref: header.ref, .storeNotFound(name)))
            return nil
        }
        if let home, home !== store {
            reject(header.ref, "This connection belongs to store \(JSONText.quoted(home.name)); use /ws to act on several stores.")
            return nil
        }
        return store
    }

    /// `{"type":"subscribe","id":"s1","store":…,"path":…,"format":…,"epoch":…,"since":…}` on `/ws`.
    private func subscribe(_ header: Header) {
        guard home == nil else { return reject(nil, "Subscriptions are made on /ws; this connection has its store already.") }
        guard let id = header.id, !id.isEmpty, let name = header.store else {
            return reject(nil, "Subscribe with an \"id\" of your choice and a \"store\".")
        }
        guard subscriptions[id] == nil else { return reject(nil, "Subscription \(JSONText.quoted(id)) exists; pick a new id.") }
        guard subscriptions.count < Self.maxSubscriptions else {
            return reject(nil, "A connection holds at most \(Self.maxSubscriptions) subscriptions.")
        }
        guard access.allows(.read, on: name) else {
            return sendMessage(WireMessage.error(ref: nil, .forbidden(.read, store: name)))
        }
        guard let store = context.stores[name] else { return sendMessage(WireMessage.error(ref: nil, .storeNotFound(name))) }
        var fields: [String: String] = [:]
        fields["path"] = header.path
        fields["format"] = header.format
        fields["epoch"] = header.epoch
        fields["since"] = header.since.map(String.init)
        let request: StreamRequest
        do {
            request = try StreamRequest(QueryParameters(fields))
        } catch {
            return sendMessage(WireMessage.error(ref: nil, error))
        }
        let subscription = WebSocketSubscription(session: self, store: store, channel: request.channel, id: id)
        subscriptions[id] = subscription
        subscription.start(resume: request.resume)
    }

    private func reject(_ ref: String?, _ message: String) {
        sendMessage(WireMessage.error(ref: ref, ClientMessageDecoding.invalidMessage(message)))
    }

    private func handleAction(_ message: JSONObject, in store: HostedStore) {
        switch store.decodeClientMessage(message) {
        case .invalid(let ref, let error):
            sendMessage(WireMessage.error(ref: ref, error))
        case .action(let ref, let id, let fingerprint, let action):
            guard access.allows(.write, on: store.name) else {
                return sendMessage(WireMessage.error(
                    ref: ref, .forbidden(.write, store: store.name)))
            }
            actionsInFlight += 1
            if actionsInFlight >= Self.maxActionsInFlight { connection.stopReading() }
            var note: IdempotencyNote?
            var gate: IdempotencyGate?
            if let id {
                let waiter: (IdempotencyCache.Outcome) -> Void = { [self] outcome in answered(ref: ref, outcome, replayed: true) }
                switch IdempotencyGate.begin(
                    key: id, field: "id", fingerprint: fingerprint, store: store, on: context.loop, waiter: waiter)
                {
                case .run(let started, let journaled):
                    gate = started
                    note = journaled
                case .waiting: return
                case .replay(let outcome): return answered(ref: ref, outcome, replayed: true)
                case .refused(let error): return answered(ref: ref, .failed(error))
                }
            }
            let loop = context.loop
            let started = gate
            action.submit(note: note) { [self] result in
                loop.execute { [self] in
                    switch result {
                    case .success(let reply):
                        // After this loop's subscribers got the version (a sliced fan-out may still be delivering it).
                        store.fanout.afterDelivery(of: reply.version, on: loop) { [self] in
                            // This action's ack first, then repeats of its id that waited (on this socket: in send order).
                            acknowledged(ref: ref, version: reply.version)
                            started?.complete(with: .reduced(reply))
                        }
                    case .failure(let error):
                        answered(ref: ref, .failed(error))
                        started?.complete(with: .failed(error))
                    }
                }
            }
        }
    }

    /// Answers an action with its outcome: an ack (`replayed`: an idempotency key's earlier outcome), or an `error`
    /// with its `ref` when it was not applied.
    private func answered(ref: String?, _ outcome: IdempotencyCache.Outcome, replayed: Bool = false) {
        context.loop.assertInLoop()
        switch outcome {
        case .reduced(let reply), .timedOut(let reply): acknowledged(ref: ref, version: reply.version, replayed: replayed)
        case .failed(let error):
            actionsInFlight -= 1
            guard state == .open else { return }
            sendMessage(WireMessage.error(ref: ref, error))
            if actionsInFlight == Self.maxActionsInFlight - 1 { updateReading() }
        }
    }

    private func acknowledged(ref: String?, version: UInt64, replayed: Bool = false) {
        context.loop.assertInLoop()
        actionsInFlight -= 1
        guard state == .open else { return }
        sendMessage(WireMessage.ack(ref: ref, version: version, replayed: replayed))
        if actionsInFlight == Self.maxActionsInFlight - 1 { updateReading() }
    }
}
