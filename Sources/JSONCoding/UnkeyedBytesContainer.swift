/// Unkeyed encoding into an `EncodingNode`: elements are written straight into the encoder's buffer, and an
/// array whose elements arrive back to back (the usual case) is closed in place without copying.
///
/// ## Thread safety
/// Confined to the encode call that created it.
struct UnkeyedBytesContainer: UnkeyedEncodingContainer {
    let encoder: BytesEncoder
    let node: EncodingNode

    var codingPath: [any CodingKey] { node.position.codingPath(in: encoder.path) }

    /// The number of elements encoded so far.
    var count: Int { node.elements.count }

    private func element(_ write: (BytesEncoder) throws -> Void) rethrows {
        let element = encoder.beginMember(of: node, key: nil)
        try write(encoder)
        encoder.endMember(element, of: node, key: nil)
    }

    private func integer<T: FixedWidthInteger>(_ value: T) {
        element { JSONTextWriter.writeInteger(value, into: &$0.buffer) }
    }

    mutating func encodeNil() throws { element { $0.writeNull() } }
    mutating func encode(_ value: Bool) throws { element { $0.writeBool(value) } }
    mutating func encode(_ value: String) throws { element { JSONTextWriter.writeString(value, into: &$0.buffer) } }

    mutating func encode(_ value: Double) throws {
        let index = count
        try element { try $0.writeDouble(value, at: node.position, .index(index)) }
    }

    mutating func encode(_ value: Float) throws {
        let index = count
        try element { try $0.writeFloat(value, at: node.position, .index(index)) }
    }

    mutating func encode(_ value: Int) throws { integer(value) }
    mutating func encode(_ value: Int8) throws { integer(value) }
    mutating func encode(_ value: Int16) throws { integer(value) }
    mutating func encode(_ value: Int32) throws { integer(value) }
    mutating func encode(_ value: Int64) throws { integer(value) }
    mutating func encode(_ value: Int128) throws { integer(value) }
    mutating func encode(_ value: UInt) throws { integer(value) }
    mutating func encode(_ value: UInt8) throws { integer(value) }
    mutating func encode(_ value: UInt16) throws { integer(value) }
    mutating func encode(_ value: UInt32) throws { integer(value) }
    mutating func encode(_ value: UInt64) throws { integer(value) }
    mutating func encode(_ value: UInt128) throws { integer(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = count
        try element { try $0.encodeValue(value, at: node.position, .index(index), base: node.depth) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedBytesContainer<NestedKey>(encoder: encoder, node: nestedNode(keyed: true)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedBytesContainer(encoder: encoder, node: nestedNode(keyed: false))
    }

    private func nestedNode(keyed: Bool) -> EncodingNode {
        let position = node.position.appending(.index(count))
        var child: EncodingNode?
        encoder.addSlotMember(of: node, key: nil) {
            let made = encoder.makeNode(keyed: keyed, depth: node.depth + 1, position: position)
            child = made
            return .container(made)
        }
        return child!
    }

    /// An encoder for a new element at the current end.
    mutating func superEncoder() -> any Encoder {
        let superEncoder = SuperEncoder(
            main: encoder, position: node.position.appending(.index(count)), base: node.depth)
        encoder.addSlotMember(of: node, key: nil) { .encoder(superEncoder) }
        return superEncoder
    }
}
