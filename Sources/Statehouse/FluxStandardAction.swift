import Foundation
import JSONCoding
package import JSON

/// Decodes a reducer's `Codable` action enum from a Flux Standard Action object.
///
/// The mapping (docs/protocol.md, "Actions"): the FSA `type` names the enum case; `payload` carries its associated
/// values. A case without values takes no payload (`{"type":"increment"}`); a case with labelled values takes an
/// object of them (`{"type":"add","payload":{"amount":5}}`); a case with one unlabelled value takes the value
/// itself (`{"type":"set","payload":5}`). An enum with `String` raw values decodes from `type` alone. `meta` and
/// `error` are accepted and ignored.
///
/// It works by presenting Swift's synthesized enum decoding (`{"case":{…}}`) a view of the FSA object, so JSON is
/// parsed once.
package struct FluxStandardAction<Action: Decodable & Sendable>: Decodable {
    package let action: Action

    private enum Field: String, CodingKey { case type, payload }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Field.self)
        let type: String
        do {
            type = try container.decode(String.self, forKey: .type)
        } catch DecodingError.keyNotFound {
            throw ActionDecodingFailure.missingType
        } catch {
            throw ActionDecodingFailure.typeNotString
        }
        var payload: (any Decoder)?
        if container.contains(.payload), try !container.decodeNil(forKey: .payload) {
            payload = try container.superDecoder(forKey: .payload)
        }
        action = try Action(from: CaseDecoder(caseName: type, payload: payload, codingPath: decoder.codingPath))
    }

    /// Decodes the action from an already parsed FSA object (the server's path: one parse with the JSONPatch
    /// parser, no Foundation). Errors are those of `init(from:)`, with coding paths starting at `payload`. An action
    /// without payload comes from `payloadless` when that store has decoded its type before.
    /// - Throws: ``ActionDecodingFailure``, or `DecodingError` from the action's own decoding.
    package static func decode(_ value: JSONValue, payloadless: PayloadlessActions<Action>? = nil) throws -> Action {
        guard case .object(let object) = value else {
            throw DecodingError.typeMismatch(
                [String: Any].self, .init(codingPath: [], debugDescription: "an action is a JSON object"))
        }
        guard let typeValue = object["type"] else { throw ActionDecodingFailure.missingType }
        guard case .string(let type) = typeValue else { throw ActionDecodingFailure.typeNotString }
        var payload: (any Decoder)?
        if let value = object["payload"], !value.isNull { payload = JSONValueDecoder().decoder(for: value) }
        if payload == nil, let payloadless {
            return try payloadless.action(type: type) {
                try Action(from: CaseDecoder(caseName: type, payload: nil, codingPath: []))
            }
        }
        do {
            return try Action(from: CaseDecoder(caseName: type, payload: payload, codingPath: []))
        } catch let error as DecodingError where payload != nil {
            throw error.prefixingPath(with: Field.payload)
        }
    }
}

extension DecodingError {
    /// The same error with `key` prepended to its coding path (a payload decoder starts at the payload itself).
    package func prefixingPath(with key: any CodingKey) -> DecodingError {
        func moved(_ context: Context) -> Context {
            Context(codingPath: [key] + context.codingPath, debugDescription: context.debugDescription,
                underlyingError: context.underlyingError)
        }
        switch self {
        case .typeMismatch(let type, let context): return .typeMismatch(type, moved(context))
        case .valueNotFound(let type, let context): return .valueNotFound(type, moved(context))
        case .keyNotFound(let missing, let context): return .keyNotFound(missing, moved(context))
        case .dataCorrupted(let context): return .dataCorrupted(moved(context))
        @unknown default: return self
        }
    }
}

/// Problems with an action's FSA envelope, found before the reducer's own decoding.
package enum ActionDecodingFailure: Error {
    case missingType
    case typeNotString
    case unknownType(String)
}

/// A position in an array, named as Foundation names it (`Index 2`).
package struct PositionKey: CodingKey {
    package let intValue: Int?
    package var stringValue: String { "Index \(intValue ?? 0)" }
    package init(_ index: Int) { intValue = index }
    package init?(stringValue: String) { nil }
    package init?(intValue: Int) { self.intValue = intValue }
}

/// A coding key with any name.
package struct NamedKey: CodingKey {
    package let stringValue: String
    package var intValue: Int? { nil }
    package init(_ name: String) { stringValue = name }
    package init?(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}
