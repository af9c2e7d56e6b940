import Foundation
import JSONCoding
import JSONPatch

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
struct FluxStandardAction<Action: Decodable>: Decodable {
    let action: Action

    private enum Field: String, CodingKey { case type, payload }

    init(from decoder: any Decoder) throws {
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
    /// parser, no Foundation). Errors are those of `init(from:)`, with coding paths starting at `payload`.
    /// - Throws: ``ActionDecodingFailure``, or `DecodingError` from the action's own decoding.
    static func decode(_ value: JSONValue) throws -> Action {
        guard case .object(let object) = value else {
            throw DecodingError.typeMismatch(
                [String: Any].self, .init(codingPath: [], debugDescription: "an action is a JSON object"))
        }
        guard let typeValue = object["type"] else { throw ActionDecodingFailure.missingType }
        guard case .string(let type) = typeValue else { throw ActionDecodingFailure.typeNotString }
        var payload: (any Decoder)?
        if let value = object["payload"], !value.isNull { payload = JSONValueDecoder().decoder(for: value) }
        do {
            return try Action(from: CaseDecoder(caseName: type, payload: payload, codingPath: []))
        } catch let error as DecodingError where payload != nil {
            throw error.prefixingPath(with: Field.payload)
        }
    }
}

extension DecodingError {
    /// The same error with `key` prepended to its coding path (a payload decoder starts at the payload itself).
    func prefixingPath(with key: any CodingKey) -> DecodingError {
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
enum ActionDecodingFailure: Error {
    case missingType
    case typeNotString
    case unknownType(String)
}

/// A `Decoder` that looks like `{"<caseName>": <payload>}` to synthesized enum decoding.
private struct CaseDecoder: Decoder {
    let caseName: String
    let payload: (any Decoder)?
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let key = Key(stringValue: caseName) else { throw ActionDecodingFailure.unknownType(caseName) }
        return KeyedDecodingContainer(CaseContainer(key: key, payload: payload, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "an action is an object"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        CaseNameContainer(caseName: caseName, codingPath: codingPath)
    }
}

/// The one-key object `{"<case>": payload}`.
private struct CaseContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let key: Key
    let payload: (any Decoder)?
    let codingPath: [any CodingKey]
    var allKeys: [Key] { [key] }

    func contains(_ key: Key) -> Bool { key.stringValue == self.key.stringValue }
    func decodeNil(forKey key: Key) throws -> Bool { payload == nil }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try T(from: payloadDecoder())
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        guard let payload else { return KeyedDecodingContainer(EmptyContainer<NestedKey>(codingPath: codingPath)) }
        if Self.isSingleUnlabelledValue(NestedKey.self) {
            return KeyedDecodingContainer(UnlabelledValueContainer<NestedKey>(value: payload))
        }
        return try payload.container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try payloadDecoder().unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { try payloadDecoder() }
    func superDecoder(forKey key: Key) throws -> any Decoder { try payloadDecoder() }

    private func payloadDecoder() throws -> any Decoder {
        guard let payload else {
            throw DecodingError.keyNotFound(
                Field.payload, .init(codingPath: codingPath, debugDescription: "this action needs a payload"))
        }
        return payload
    }

    /// Synthesized keys of a case like `set(Int)` are exactly `_0`.
    private static func isSingleUnlabelledValue<K: CodingKey>(_: K.Type) -> Bool {
        K(stringValue: "_0") != nil && K(stringValue: "_1") == nil && K(stringValue: "\u{0}probe") == nil
    }

    private enum Field: String, CodingKey { case payload }
}

/// `{"_0": payload}` for a case with one unlabelled value.
private struct UnlabelledValueContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let value: any Decoder
    var codingPath: [any CodingKey] { value.codingPath }
    var allKeys: [Key] { Key(stringValue: "_0").map { [$0] } ?? [] }

    func contains(_ key: Key) -> Bool { key.stringValue == "_0" }
    func decodeNil(forKey key: Key) throws -> Bool { try value.singleValueContainer().decodeNil() }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try T(from: value) }
    func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: Key) throws -> KeyedDecodingContainer<N> {
        try value.container(keyedBy: N.self)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try value.unkeyedContainer() }
    func superDecoder() throws -> any Decoder { value }
    func superDecoder(forKey key: Key) throws -> any Decoder { value }
}

/// An object with no keys: what a case sees when the action has no payload.
private struct EmptyContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let codingPath: [any CodingKey]
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { false }
    func decodeNil(forKey key: Key) throws -> Bool { throw missing(key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw missing(key) }
    func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: Key) throws -> KeyedDecodingContainer<N> {
        throw missing(key)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw missing(key) }
    func superDecoder() throws -> any Decoder { throw missing(nil) }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw missing(key) }

    private func missing(_ key: Key?) -> DecodingError {
        .keyNotFound(key ?? NamedKey("payload"), .init(codingPath: codingPath, debugDescription: "no payload"))
    }
}

/// A position in an array, named as Foundation names it (`Index 2`).
struct PositionKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// A coding key with any name.
struct NamedKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A `String` raw-value enum reads the case name as its single value.
private struct CaseNameContainer: SingleValueDecodingContainer {
    let caseName: String
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { false }
    func decode(_ type: String.Type) throws -> String { caseName }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard let value = caseName as? T else {
            throw DecodingError.typeMismatch(T.self, .init(codingPath: codingPath, debugDescription: "action type is a string"))
        }
        return value
    }
}
