/// Keyed encoding into an `EncodingNode`: each member is written as `"key":value` straight into the encoder's
/// buffer and sorted when the owning `encode(to:)` returns.
///
/// Encoding a key twice keeps the last value (as Foundation). Unlike Foundation, asking twice for a nested
/// container under the same key does not merge the two: the later one replaces the earlier.
///
/// ## Thread safety
/// Confined to the encode call that created it.
struct KeyedBytesContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: BytesEncoder
    let node: NodeHandle

    var codingPath: [any CodingKey] { position.codingPath(in: encoder.state.pointee.path) }

    private var position: PathPosition { encoder.position(ofNode: node.index) }
    private var depth: Int { encoder.state.pointee.nodes[node.index].depth }

    // Every member is `"key":` (written from `key.stringValue`, the only call that needs `Key`) and a value written
    // by non-generic code: this container runs unspecialized, called through `KeyedEncodingContainer`'s box.
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    private func member(_ key: Key, _ write: (BytesEncoder) throws -> Void) rethrows {
        let element = encoder.beginMember(of: node, key: key.stringValue)
        try write(encoder)
        encoder.endMember(element, of: node)
    }

    private func signed(_ value: Int64, _ key: Key) { member(key) { $0.writeInteger(value) } }
    private func unsigned(_ value: UInt64, _ key: Key) { member(key) { $0.writeInteger(value) } }

    mutating func encodeNil(forKey key: Key) throws { member(key) { $0.writeNull() } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { member(key) { $0.writeBool(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws { member(key) { $0.writeString(value) } }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        try member(key) { try $0.writeDouble(value, in: .node(node), .key(key)) }
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        try member(key) { try $0.writeFloat(value, in: .node(node), .key(key)) }
    }

    mutating func encode(_ value: Int, forKey key: Key) throws { signed(Int64(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { signed(Int64(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { signed(Int64(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { signed(Int64(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { signed(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { unsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { unsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { unsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { unsigned(UInt64(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { unsigned(value, key) }

    mutating func encode(_ value: Int128, forKey key: Key) throws {
        member(key) { $0.writeInteger(wide: value) }
    }

    mutating func encode(_ value: UInt128, forKey key: Key) throws {
        member(key) { $0.writeInteger(wide: value) }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try member(key) { try $0.encodeValue(value, in: .node(node), .key(key)) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedBytesContainer<NestedKey>(encoder: encoder, node: nestedNode(keyed: true, key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        UnkeyedBytesContainer(encoder: encoder, node: nestedNode(keyed: false, key))
    }

    private func nestedNode(keyed: Bool, _ key: Key) -> NodeHandle {
        var child: NodeHandle?
        encoder.addSlotMember(of: node, key: key.stringValue) {
            let made = encoder.makeNode(
                keyed: keyed, depth: depth + 1, position: position.appending(.key(key)))
            child = made
            return .container(made.index)
        }
        return child!
    }

    /// An encoder for the value at key `super`.
    mutating func superEncoder() -> any Encoder {
        superEncoder(named: NamedKey.superKey.stringValue, .key(NamedKey.superKey))
    }

    /// An encoder for the value at `key`.
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: key.stringValue, .key(key))
    }

    private func superEncoder(named name: String, _ step: PathKey) -> any Encoder {
        let superEncoder = SuperEncoder(main: encoder, position: position.appending(step), base: depth)
        encoder.addSlotMember(of: node, key: name) { .encoder(superEncoder) }
        return superEncoder
    }
}
