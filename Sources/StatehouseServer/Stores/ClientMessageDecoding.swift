import Statehouse
import JSON

/// Reads WebSocket client messages: `{"type":"action","ref":"r1","id":"k1","action":{FSA}}` (optionally with
/// `"wait":"settled","timeout_ms":N`, ``ActionWait/init(message:)``), already parsed once by the session (JSONPatch's parser; no second parse, no Foundation).
enum ClientMessageDecoding {
    static func decode<Action: Decodable & Sendable>(
        _ message: JSONObject, actionTypes: [String], payloadless: PayloadlessActions<Action>,
        bind: (Action) -> PreparedAction
    ) -> ClientMessage {
        var ref: String?
        switch message["ref"] {
        case nil, .null?: break
        case .string(let text)?: ref = text
        default: return .invalid(ref: nil, invalidMessage("\"ref\" must be a string."))
        }
        guard case .string("action")? = message["type"] else {
            let got = message["type"]?.stringValue.map { "\"\($0)\"" } ?? "none"
            return .invalid(ref: ref, invalidMessage(
                "Unknown message type \(got); send {\"type\":\"action\",\"ref\":\"r1\",\"action\":{…}} or {\"type\":\"resync\"}."))
        }
        guard let actionValue = message["action"] else {
            return .invalid(ref: ref, invalidMessage("An action message needs an \"action\" object."))
        }
        let action: Action
        do {
            action = try FluxStandardAction<Action>.decode(actionValue, payloadless: payloadless)
        } catch let error as DecodingError {
            let error = error.prefixingPath(with: NamedKey("action"))
            return .invalid(ref: ref, ActionErrorMessage.apiError(for: error, actionTypes: actionTypes))
        } catch {
            return .invalid(ref: ref, ActionErrorMessage.apiError(for: error, actionTypes: actionTypes))
        }
        var id: String?
        switch message["id"] {
        case nil, .null?: break
        case .string(let text)?: id = text
        default: return .invalid(ref: ref, invalidMessage("\"id\" (an idempotency key) must be a string."))
        }
        let wait: ActionWait
        do {
            wait = try ActionWait(message: message)
        } catch {
            return .invalid(ref: ref, error)
        }
        // The action's identity for key reuse checks: its type and payload (member order and `meta` do not count)
        // and its wait. Only a keyed action is ever checked, so only a keyed action pays for hashing its JSON.
        let fingerprint = id == nil ? 0 : StableFingerprint.of(action: actionValue, wait: wait)
        return .action(ref: ref, id: id, fingerprint: fingerprint, wait: wait, bind(action))
    }

    static func invalidMessage(_ message: String) -> APIError {
        .invalidMessage(message)
    }
}
