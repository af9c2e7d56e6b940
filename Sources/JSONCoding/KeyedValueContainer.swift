import JSON

/// Keyed decoding over a `JSONObject`, looking keys up in the object directly (no dictionary is built).
///
/// Missing keys throw `keyNotFound`; `decodeIfPresent` returns nil for a missing key or null. If the JSON text
/// repeated a key, the parser kept the last value (Foundation's decoder keeps the first).
///
/// ## Thread safety
/// Confined to the decode call that created it.
struct KeyedValueContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ValueDecoder
    let object: JSONObject
    let position: PathPosition

    var codingPath: [any CodingKey] { position.codingPath(in: decoder.path) }

    /// The object's keys that `Key` accepts, in member order.
    var allKeys: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(object.count)
        for name in object.keys {
            if let key = Key(stringValue: name) { keys.append(key) }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { object.position(of: key.stringValue) != nil }

    /// The value for `key`.
    /// - Throws: `DecodingError.keyNotFound` when the object has no such member.
    func value(for key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else { throw decoder.keyNotFound(key, at: position) }
        return value
    }

    /// The value for `key` unless it is missing or null.
    func presentValue(for key: Key) -> JSONValue? {
        guard let value = object[key.stringValue], !value.isNull else { return nil }
        return value
    }

    // Inlined so that `T` is concrete at the call: the container is generic over `Key`, and a helper generic over
    // both would otherwise run unspecialized.
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    private func integer<T: FixedWidthInteger>(_ key: Key) throws -> T {
        try decoder.integer(value(for: key), as: T.self, at: position, .key(key))
    }

    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    private func float<T: BinaryFloatingPoint & LosslessStringConvertible>(_ key: Key) throws -> T {
        try decoder.floatingPoint(value(for: key), as: T.self, at: position, .key(key))
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(for: key).isNull }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.bool(value(for: key), at: position, .key(key))
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.string(value(for: key), at: position, .key(key))
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try float(key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try float(key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unwrap(value(for: key), as: type, at: position, .key(key))
    }
}
