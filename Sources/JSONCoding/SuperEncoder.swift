/// The encoder returned by `superEncoder()` / `superEncoder(forKey:)`: a separate level whose content becomes
/// one member of the container that created it, written when that container is assembled. Encoding nothing
/// into it yields `{}` (as Foundation).
///
/// ## Thread safety
/// Confined to the encode call that created it; use it before the `encode(to:)` that created it returns.
final class SuperEncoder: Encoder, SingleValueEncodingContainer {
    private let main: BytesEncoder
    /// The position of this encoder's value.
    let position: PathPosition
    /// JSON nesting depth around this encoder's value.
    private let base: Int
    /// What has been encoded through this encoder.
    private(set) var root: LevelRoot = .empty

    init(main: BytesEncoder, position: PathPosition, base: Int) {
        self.main = main
        self.position = position
        self.base = base
    }

    private var anchor: PathAnchor { .fixed(position, base: base) }

    var codingPath: [any CodingKey] { position.codingPath(in: main.state.pointee.path) }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let node = main.levelNode(existing: root, keyed: true, base: base, position: position)
        root = .container(node)
        return KeyedEncodingContainer(KeyedBytesContainer<Key>(encoder: main, node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let node = main.levelNode(existing: root, keyed: false, base: base, position: position)
        root = .container(node)
        return UnkeyedBytesContainer(encoder: main, node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    private func single(_ write: (BytesEncoder) throws -> Void) rethrows {
        guard case .empty = root else {
            preconditionFailure("Attempt to encode value through single value container when previously value already encoded.")
        }
        let start = main.state.pointee.buffer.count
        try write(main)
        root = .single(start..<main.state.pointee.buffer.count)
    }

    private func integer<T: FixedWidthInteger>(_ value: T) {
        single { $0.write { JSONTextWriter.writeInteger(value, into: &$0) } }
    }

    func encodeNil() throws { single { $0.writeNull() } }
    func encode(_ value: Bool) throws { single { $0.writeBool(value) } }
    func encode(_ value: String) throws { single { $0.write { JSONTextWriter.writeString(value, into: &$0) } } }
    func encode(_ value: Double) throws { try single { try $0.writeDouble(value, in: anchor, nil) } }
    func encode(_ value: Float) throws { try single { try $0.writeFloat(value, in: anchor, nil) } }
    func encode(_ value: Int) throws { integer(value) }
    func encode(_ value: Int8) throws { integer(value) }
    func encode(_ value: Int16) throws { integer(value) }
    func encode(_ value: Int32) throws { integer(value) }
    func encode(_ value: Int64) throws { integer(value) }
    func encode(_ value: Int128) throws { integer(value) }
    func encode(_ value: UInt) throws { integer(value) }
    func encode(_ value: UInt8) throws { integer(value) }
    func encode(_ value: UInt16) throws { integer(value) }
    func encode(_ value: UInt32) throws { integer(value) }
    func encode(_ value: UInt64) throws { integer(value) }
    func encode(_ value: UInt128) throws { integer(value) }

    func encode<T: Encodable>(_ value: T) throws {
        try single { try $0.encodeValue(value, in: anchor, nil) }
    }
}
