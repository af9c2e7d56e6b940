import Foundation
import Synchronization
import Locking

/// A `Decoder` that looks like `{"<caseName>": <payload>}` to synthesized enum decoding.
struct CaseDecoder: Decoder {
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
struct CaseContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
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

    /// Synthesized keys of a case like `set(Int)` are exactly `_0`. Probed once per key type (three keys made and
    /// compared), then remembered.
    private static func isSingleUnlabelledValue<K: CodingKey>(_: K.Type) -> Bool {
        let type = ObjectIdentifier(K.self)
        if let known = unlabelledKeyTypes.withLock({ $0[type] }) { return known }
        let single = K(stringValue: "_0") != nil && K(stringValue: "_1") == nil && K(stringValue: "\u{0}probe") == nil
        unlabelledKeyTypes.withLock { $0[type] = single }
        return single
    }

    private enum Field: String, CodingKey { case payload }
}

/// `{"_0": payload}` for a case with one unlabelled value.
struct UnlabelledValueContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
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

/// Which coding-key types are a single unlabelled value's (see `CaseContainer.isSingleUnlabelledValue`): one entry per
/// action case type with a payload, so it stays as small as the reducers' action enums.
private let unlabelledKeyTypes = Locked<[ObjectIdentifier: Bool]>([:])

/// An object with no keys: what a case sees when the action has no payload.
struct EmptyContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
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

/// A `String` raw-value enum reads the case name as its single value.
struct CaseNameContainer: SingleValueDecodingContainer {
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
