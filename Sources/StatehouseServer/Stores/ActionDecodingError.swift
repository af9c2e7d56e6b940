import Foundation

/// Turns a failure to decode an action into an `invalid_json` or `invalid_action` ``APIError`` whose message says
/// what was wrong and, where known, lists the store's action types.
enum ActionErrorMessage {
    static func apiError(for error: any Error, actionTypes: [String]) -> APIError {
        let known = actionTypes.isEmpty ? "" : " This store's action types: \(actionTypes.joined(separator: ", "))."
        func invalid(_ text: String) -> APIError {
            APIError(status: 400, code: "invalid_action", message: text + known)
        }
        switch error {
        case ActionDecodingFailure.missingType:
            return invalid("The action has no \"type\"; send {\"type\":\"<action>\",\"payload\":{…}}.")
        case ActionDecodingFailure.typeNotString:
            return invalid("The action's \"type\" must be a string naming the action.")
        case ActionDecodingFailure.unknownType(let type):
            return invalid("Unknown action type \(JSONText.quoted(type)).")
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            return .invalidJSON(context.underlyingError.map(shortDescription) ?? "syntax error")
        case DecodingError.typeMismatch(_, let context) where isRoot(context.codingPath):
            return invalid("An action must be a JSON object with a \"type\" field.")
        case DecodingError.keyNotFound(let key, let context):
            return invalid("The payload needs the field \(JSONText.quoted(place(context.codingPath + [key]))).")
        case DecodingError.typeMismatch(let type, let context):
            return invalid("The payload field \(JSONText.quoted(place(context.codingPath))) must be \(describe(type)).")
        case DecodingError.valueNotFound(let type, let context):
            return invalid("The payload field \(JSONText.quoted(place(context.codingPath))) must be \(describe(type)), not null.")
        case DecodingError.dataCorrupted(let context):
            return invalid("The payload field \(JSONText.quoted(place(context.codingPath))) is invalid: \(context.debugDescription)")
        default:
            return invalid("The action could not be read: \(error).")
        }
    }

    /// The action object itself: the body of a POST, or `action` inside a WebSocket message.
    private static func isRoot(_ path: [any CodingKey]) -> Bool {
        path.allSatisfy { $0.stringValue == "action" }
    }

    /// `payload.amount` style path, without the leading `payload` (and nothing for a whole unlabelled payload).
    private static func place(_ path: [any CodingKey]) -> String {
        let names = path.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
            .drop { $0 == "payload" || $0 == "action" }
            .filter { $0 != "_0" }
        let joined = names.reduce("") { $0.isEmpty || $1.hasPrefix("[") ? $0 + $1 : $0 + "." + $1 }
        return joined.isEmpty ? "payload" : joined
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type: return "an integer"
        case is Double.Type, is Float.Type: return "a number"
        case is [Any].Type: return "an array"
        case is [String: Any].Type: return "an object"
        default: return "a \(type)"
        }
    }

    private static func shortDescription(_ error: any Error) -> String {
        let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        return text.split(separator: "\n").first.map(String.init) ?? text
    }
}
