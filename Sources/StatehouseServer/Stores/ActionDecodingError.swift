import Statehouse
import Foundation
import JSON

/// Turns a failure to decode an action into an `invalid_json` or `invalid_action` ``APIError`` whose message says
/// what was wrong and, where known, lists the store's action types.
enum ActionErrorMessage {
    /// - Parameters:
    ///   - body: the bytes that failed to decode, to tell a syntax error from a number that fits no field.
    static func apiError(for error: any Error, actionTypes: [String], body: [UInt8]? = nil) -> APIError {
        let known = actionTypes.isEmpty ? "" : " This store's action types: \(actionTypes.joined(separator: ", "))."
        func invalid(_ text: String) -> APIError {
            .invalidAction(text + known)
        }
        switch error {
        case ActionDecodingFailure.missingType:
            return invalid("The action has no \"type\"; send {\"type\":\"<action>\",\"payload\":{…}}.")
        case ActionDecodingFailure.typeNotString:
            return invalid("The action's \"type\" must be a string naming the action.")
        case ActionDecodingFailure.unknownType(let type):
            return invalid("Unknown action type \(JSONText.quoted(type)).")
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            if let parse = context.underlyingError as? JSONParseError {
                // The server's own parse failed: its error says where; no second parse.
                return .invalidJSON(body.map(isBlank) == true ? "the body is empty" : "\(parse)")
            }
            if let body, let problem = syntaxProblem(body) { return .invalidJSON(problem) }
            return invalid(numberMessage)
        case DecodingError.typeMismatch(_, let context) where isRoot(context.codingPath):
            return invalid("An action must be a JSON object with a \"type\" field.")
        case DecodingError.keyNotFound(let key, let context):
            return invalid("The payload needs the field \(JSONText.quoted(place(context.codingPath + [key]))).")
        case DecodingError.typeMismatch(let type, let context) where place(context.codingPath) == "payload":
            return invalid("The payload must be \(JSONTypeName.of(type)).")
        case DecodingError.typeMismatch(let type, let context):
            return invalid("The payload field \(JSONText.quoted(place(context.codingPath))) must be \(JSONTypeName.of(type)).")
        case DecodingError.valueNotFound(let type, let context):
            return invalid("The payload field \(JSONText.quoted(place(context.codingPath))) must be \(JSONTypeName.of(type)), not null.")
        case DecodingError.dataCorrupted(let context):
            return invalid("The payload field \(JSONText.quoted(place(context.codingPath))) is invalid: \(context.debugDescription)")
        default:
            // Foundation reports a number that fits no Swift type (1.5 for an Int, 1e999) with an internal error.
            return invalid(numberMessage)
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

    private static let numberMessage =
        "A number in the payload does not fit its field: integer fields take whole numbers from -2^63 to 2^63-1."

    /// Whether `body` is empty or only RFC 8259 whitespace.
    private static func isBlank(_ body: [UInt8]) -> Bool {
        body.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }

    /// What is wrong with `body` as JSON, or nil when it is valid JSON.
    private static func syntaxProblem(_ body: [UInt8]) -> String? {
        if isBlank(body) { return "the body is empty" }
        do {
            _ = try JSONValue(parsing: body)  // the same strict RFC 8259 parser that read the action
            return nil
        } catch {
            return "\(error)"
        }
    }
}

/// How a Swift type shows in JSON, for error messages ("an integer", "a string", …).
enum JSONTypeName {
    static func of(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type: return "an integer"
        case is Double.Type, is Float.Type: return "a number"
        case is [Any].Type: return "an array"
        case is [String: Any].Type: return "an object"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array<") { return "an array" }
            if name.hasPrefix("Dictionary<") || name.contains("KeyedDecodingContainer") { return "an object" }
            return "an object (\(name))"
        }
    }
}
