import Foundation

/// Reads WebSocket client messages: `{"type":"action","ref":"r1","action":{FSA}}`.
enum ClientMessageDecoding {
    static func decode<Action: Decodable>(
        _ text: [UInt8], actionTypes: [String], as: Action.Type, bind: (Action) -> PreparedAction
    ) -> ClientMessage {
        let envelope: Envelope<Action>
        do {
            envelope = try JSONDecoder().decode(Envelope<Action>.self, from: Data(text))
        } catch let failure as EnvelopeFailure {
            return .invalid(ref: failure.ref, failure.error)
        } catch let failure as ActionFailure {
            return .invalid(ref: failure.ref, ActionErrorMessage.apiError(for: failure.underlying, actionTypes: actionTypes))
        } catch {
            return .invalid(ref: nil, invalidMessage("The message is not valid JSON; send one JSON object per text message."))
        }
        var hasher = Hasher()
        hasher.combine(envelope.actionJSON)
        return .action(ref: envelope.ref, id: envelope.id, fingerprint: hasher.finalize(), bind(envelope.action))
    }

    static func invalidMessage(_ message: String) -> APIError {
        APIError(status: 400, code: "invalid_message", message: message)
    }

    private struct EnvelopeFailure: Error {
        var ref: String?
        var error: APIError
    }

    private struct ActionFailure: Error {
        var ref: String?
        var underlying: any Error
    }

    private struct Envelope<Action: Decodable>: Decodable {
        let ref: String?
        let id: String?
        let action: Action
        /// A canonical form of the action for idempotency checks.
        let actionJSON: String

        private enum Key: String, CodingKey { case type, ref, id, action }

        init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: Key.self) else {
                throw EnvelopeFailure(ref: nil, error: invalidMessage("A message must be a JSON object with a \"type\"."))
            }
            let ref: String?
            do {
                ref = try container.decodeIfPresent(String.self, forKey: .ref)
            } catch {
                throw EnvelopeFailure(ref: nil, error: invalidMessage("\"ref\" must be a string."))
            }
            let type = try? container.decode(String.self, forKey: .type)
            guard type == "action" else {
                let got = type.map { "\"\($0)\"" } ?? "none"
                throw EnvelopeFailure(
                    ref: ref, error: invalidMessage("Unknown message type \(got); send {\"type\":\"action\",\"ref\":\"r1\",\"action\":{…}} or {\"type\":\"resync\"}."))
            }
            guard container.contains(.action) else {
                throw EnvelopeFailure(ref: ref, error: invalidMessage("An action message needs an \"action\" object."))
            }
            do {
                action = try container.decode(FluxStandardAction<Action>.self, forKey: .action).action
            } catch {
                throw ActionFailure(ref: ref, underlying: error)
            }
            do {
                id = try container.decodeIfPresent(String.self, forKey: .id)
            } catch {
                throw EnvelopeFailure(ref: ref, error: invalidMessage("\"id\" (an idempotency key) must be a string."))
            }
            actionJSON = String(describing: action)
            self.ref = ref
        }
    }
}
