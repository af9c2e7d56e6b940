import Foundation
import JSON

/// Client messages: `action` (+Actions), `resync`, and on the multiplexed `/ws` also `subscribe` / `unsubscribe`.
extension WebSocketSession {
    /// The longest `ref` and subscription `id` a client message may carry, in bytes (idempotency keys: the same bound,
    /// checked by the idempotency gate).
    static let maxIdentifierBytes = 255

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
        // A `ref`, or a subscription's `id`, is echoed in answers and kept while its action or subscription lives:
        // bounded, and a longer one is refused without being echoed. (An action's `id` is its idempotency key, which
        // the idempotency gate bounds with its own error, `invalid_idempotency_key`.)
        let isAction = object["type"]?.stringValue == "action"
        for key in isAction ? ["ref"] : ["ref", "id"] {
            guard case .string(let text)? = object[key], text.utf8.count > Self.maxIdentifierBytes else { continue }
            let message = "\"\(key)\" is \(text.utf8.count) bytes long; send at most \(Self.maxIdentifierBytes)."
            if isAction {
                return answer(takeTicket(), WireMessage.error(ref: nil, ClientMessageDecoding.invalidMessage(message)))
            }
            return reject(nil, message)
        }
        let header: ClientMessageHeader
        do {
            header = try ClientMessageHeader(object)
        } catch {
            // A field with the wrong type: on a store's socket the store's decoder explains (it names the field).
            if let store = home { return handleAction(object, in: store, ticket: takeTicket()) }
            return rejectUnread(object, error.message)
        }
        switch header.type {
        case "action":
            let ticket = takeTicket()
            guard let store = target(header, ticket: ticket) else { return }
            handleAction(object, in: store, ticket: ticket)
        case "resync":
            guard let subscription = subscriptions[header.id ?? ""] else {
                return reject(nil, sub: header.id,
                    "No subscription \(JSONText.quoted(header.id ?? "")) to resync; give the id you subscribed with.")
            }
            subscription.resync()
        case "subscribe":
            subscribe(header)
        case "unsubscribe":
            guard let id = header.id, home == nil, let subscription = subscriptions.removeValue(forKey: id) else {
                return reject(nil, sub: header.id, "Unsubscribe takes the id of a subscription made on /ws.")
            }
            subscription.end()
            sendMessage(Array("{\"type\":\"unsubscribed\",\"sub\":\(JSONText.quoted(id))}".utf8))
        default:
            // Unknown or missing type: the store's decoder gives the standard invalid_message answer.
            guard let store = home else {
                return reject(nil, "Unknown message type; send action, subscribe, unsubscribe or resync.")
            }
            handleAction(object, in: store, ticket: takeTicket())
        }
    }

    /// A message on `/ws` with a field of the wrong type: the error keeps what can be read of it, the `ref` of an
    /// `action` (answered in its turn) or the `id` of a subscription command (as `sub`).
    private func rejectUnread(_ object: JSONObject, _ message: String) {
        switch object["type"]?.stringValue {
        case "action"?:
            answer(takeTicket(), WireMessage.error(
                ref: object["ref"]?.stringValue, ClientMessageDecoding.invalidMessage(message)))
        case "subscribe"?, "unsubscribe"?, "resync"?:
            reject(nil, sub: object["id"]?.stringValue, message)
        default:
            reject(nil, message)
        }
    }

    /// The store an action goes to: `store` on `/ws` (required), or the connection's own store; nil when it was
    /// refused (answered under `ticket`).
    private func target(_ header: ClientMessageHeader, ticket: UInt64) -> HostedStore? {
        guard let name = header.store ?? home?.name else {
            answer(ticket, Self.invalid(header.ref, sub: nil, "On /ws an action names its \"store\"."))
            return nil
        }
        guard let store = context.stores[name] else {
            answer(ticket, WireMessage.error(ref: header.ref, .storeNotFound(name)))
            return nil
        }
        if let home, home !== store {
            answer(ticket, Self.invalid(
                header.ref, sub: nil,
                "This connection belongs to store \(JSONText.quoted(home.name)); use /ws to act on several stores."))
            return nil
        }
        return store
    }

    /// `{"type":"subscribe","id":"s1","store":…,"path":…,"format":…,"epoch":…,"since":…}` on `/ws`. Every error
    /// names the subscription (`"sub"`) when the message had an id.
    private func subscribe(_ header: ClientMessageHeader) {
        let sub = header.id
        guard home == nil else {
            return reject(nil, sub: sub, "Subscriptions are made on /ws; this connection has its store already.")
        }
        guard let id = header.id, !id.isEmpty, let name = header.store else {
            return reject(nil, sub: sub, "Subscribe with an \"id\" of your choice and a \"store\".")
        }
        guard subscriptions[id] == nil else {
            return reject(nil, sub: id, "Subscription \(JSONText.quoted(id)) exists; pick a new id.")
        }
        guard subscriptions.count < Self.maxSubscriptions else {
            return reject(nil, sub: id, "A connection holds at most \(Self.maxSubscriptions) subscriptions.")
        }
        guard access.allows(.read, on: name) else {
            return sendMessage(WireMessage.error(ref: nil, .forbidden(.read, store: name), sub: id))
        }
        guard let store = context.stores[name] else {
            return sendMessage(WireMessage.error(ref: nil, .storeNotFound(name), sub: id))
        }
        let request: StreamRequest
        do {
            request = try StreamRequest(header.streamQuery)
        } catch {
            return sendMessage(WireMessage.error(ref: nil, error, sub: id))
        }
        let subscription = WebSocketSubscription(session: self, store: store, channel: request.channel, id: id)
        subscriptions[id] = subscription
        subscription.start(resume: request.resume)
    }

    /// An `invalid_message` error sent at once (not an answer to an `action`): with `"sub"` naming the subscription
    /// of a `subscribe`/`unsubscribe`/`resync` that had a (non-empty) id.
    private func reject(_ ref: String?, sub: String? = nil, _ message: String) {
        sendMessage(Self.invalid(ref, sub: sub, message))
    }

    private static func invalid(_ ref: String?, sub: String?, _ message: String) -> [UInt8] {
        let sub = sub.flatMap { $0.isEmpty ? nil : $0 }
        return WireMessage.error(ref: ref, ClientMessageDecoding.invalidMessage(message), sub: sub)
    }
}
