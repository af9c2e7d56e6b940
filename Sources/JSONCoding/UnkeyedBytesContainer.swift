/// Unkeyed encoding into an `EncodingNode`: elements are written straight into the encoder's buffer, and an
/// array whose elements arrive back to back (the usual case) is closed in place without copying.
///
/// ## Thread safety
/// Confined to the encode call that created it.
struct UnkeyedBytesContainer: UnkeyedEncodingContainer {
    let encoder: BytesEncoder
    let node: NodeHandle

    var codingPath: [any CodingKey] { position.codingPath(in: encoder.state.pointee.path) }

    private var position: PathPosition { encoder.position(ofNode: node.index) }
    private var depth: Int { encoder.state.pointee.nodes[node.index].depth }

    /// The number of elements encoded so far.
    var count: Int { encoder.state.pointee.nodes[node.index].count }

    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    private func element(_ write: (BytesEncoder) throws -> Void) rethrows {
        let element = encoder.beginMember(of: node)
        try write(encoder)
        encoder.endMember(element, of: node)
    }

    private func signed(_ value: Int64) { element { $0.writeInteger(value) } }
    private func unsigned(_ value: UInt64) { element { $0.writeInteger(value) } }

    mutating func encodeNil() throws { element { $0.writeNull() } }
    mutating func encode(_ value: Bool) throws { element { $0.writeBool(value) } }
    mutating func encode(_ value: String) throws { element { $0.writeString(value) } }

    mutating func encode(_ value: Double) throws {
        let index = count
        try element { try $0.writeDouble(value, in: .node(node), .index(index)) }
    }

    mutating func encode(_ value: Float) throws {
        let index = count
        try element { try $0.writeFloat(value, in: .node(node), .index(index)) }
    }

    mutating func encode(_ value: Int) throws { signed(Int64(value)) }
    mutating func encode(_ value: Int8) throws { signed(Int64(value)) }
    mutating func encode(_ value: Int16) throws { signed(Int64(value)) }
    mutating func encode(_ value: Int32) throws { signed(Int64(value)) }
    mutating func encode(_ value: Int64) throws { signed(value) }
    mutating func encode(_ value: Int128) throws { element { $0.writeInteger(wide: value) } }
    mutating func encode(_ value: UInt) throws { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { unsigned(value) }
    mutating func encode(_ value: UInt128) throws { element { $0.writeInteger(wide: value) } }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = count
        try element { try $0.encodeValue(value, in: .node(node), .index(index)) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedBytesContainer<NestedKey>(encoder: encoder, node: nestedNode(keyed: true)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedBytesContainer(encoder: encoder, node: nestedNode(keyed: false))
    }

    private func nestedNode(keyed: Bool) -> NodeHandle {
        let position = position.appending(.index(count))
        var child: NodeHandle?
        encoder.addSlotMember(of: node, key: nil) {
            let made = encoder.makeNode(keyed: keyed, depth: depth + 1, position: position)
            child = made
            return .container(made.index)
        }
        return child!
    }

    /// An encoder for a new element at the current end.
    mutating func superEncoder() -> any Encoder {
        let superEncoder = SuperEncoder(
            main: encoder, position: position.appending(.index(count)), base: depth)
        encoder.addSlotMember(of: node, key: nil) { .encoder(superEncoder) }
        return superEncoder
    }
}
