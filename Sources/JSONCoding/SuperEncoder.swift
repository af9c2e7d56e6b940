/// The encoder returned by `superEncoder()` / `superEncoder(forKey:)`: a separate level whose content becomes
/// one member of the container that created it, written when that container is assembled. Encoding nothing
/// into it yields `{}` (as Foundation).
///
/// ## Thread safety
/// Confined to the encode call that created it; use it before the `encode(to:)` that created it returns.
final class SuperEncoder: Encoder, SingleValueBytesWriter {
    private let main: BytesEncoder
    /// The position of this encoder's value.
    let position: PathPosition
    /// JSON nesting depth around this encoder's value.
    let base: Int
    /// What has been encoded through this encoder.
    private(set) var root: LevelRoot = .empty

    init(main: BytesEncoder, position: PathPosition, base: Int) {
        self.main = main
        self.position = position
        self.base = base
    }

    var singleValueAnchor: PathAnchor { .superEncoder(self) }

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

    func single(_ write: (BytesEncoder) throws -> Void) rethrows {
        guard case .empty = root else {
            preconditionFailure("Attempt to encode value through single value container when previously value already encoded.")
        }
        let start = main.state.pointee.bytes.count
        try write(main)
        root = .single(start..<main.state.pointee.bytes.count)
    }
}
