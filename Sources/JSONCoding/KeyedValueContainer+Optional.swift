import JSON

/// `decodeIfPresent` with a single key lookup (the protocol's defaults look the key up three times).
extension KeyedValueContainer {
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = presentValue(for: key) else { return nil }
        return try decoder.bool(value, at: position, .key(key))
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = presentValue(for: key) else { return nil }
        return try decoder.string(value, at: position, .key(key))
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try floating(key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try floating(key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try integral(key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try integral(key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try integral(key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try integral(key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try integral(key) }
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try integral(key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try integral(key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try integral(key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try integral(key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try integral(key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try integral(key) }
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try integral(key) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = presentValue(for: key) else { return nil }
        return try decoder.unwrap(value, as: type, at: position, .key(key))
    }

    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    private func integral<T: FixedWidthInteger>(_ key: Key) throws -> T? {
        guard let value = presentValue(for: key) else { return nil }
        return try decoder.integer(value, as: T.self, at: position, .key(key))
    }

    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    private func floating<T: BinaryFloatingPoint & LosslessStringConvertible>(_ key: Key) throws -> T? {
        guard let value = presentValue(for: key) else { return nil }
        return try decoder.floatingPoint(value, as: T.self, at: position, .key(key))
    }
}

/// Nested containers and super decoders.
extension KeyedValueContainer {
    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.keyedContainer(for: value(for: key), at: position.appending(.key(key)), keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.unkeyedContainer(for: value(for: key), at: position.appending(.key(key)))
    }

    /// A decoder for the value at key `super` (null when missing, as Foundation does).
    func superDecoder() throws -> any Decoder {
        decoder.detachedDecoder(for: object["super"] ?? .null, at: position, .key(NamedKey.superKey))
    }

    /// A decoder for the value at `key` (null when missing, as Foundation does).
    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.detachedDecoder(for: object[key.stringValue] ?? .null, at: position, .key(key))
    }
}
