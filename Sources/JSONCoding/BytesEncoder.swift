/// The `Encoder` that `JSONBytesEncoder` hands to `encode(to:)`: writes JSON text into one growing buffer.
///
/// One instance serves a whole encode. Each `encode(to:)` call is a *level*: its output starts at the buffer
/// offset where the level began, and when the call returns the level's container text (keys sorted) is moved
/// down to that offset (`finishLevel(from:)`), so bytes are never kept as separate arrays. The encoder is also
/// the single-value container of the current level.
///
/// ## Thread safety
/// Confined to the thread running one encode call; never shared.
final class BytesEncoder: Encoder {
    /// Output text, followed during encoding by not-yet-assembled member bytes.
    var buffer: [UInt8] = []
    /// Scratch space for assembling one container's text (reused).
    var assembly: [UInt8] = []
    /// Coding path steps of the open levels, outermost first.
    var path: [PathKey] = []
    /// What the current level has produced.
    var root: LevelRoot = .empty
    /// JSON nesting depth around the current level's value (0 at the top).
    var levelBase = 0
    /// Set when a container would be nested 512 or more deep (Foundation's writer limit); reported at the end.
    var depthExceeded = false
    /// Set when the top-level value encoded nothing (Foundation throws for that).
    var topLevelWasEmpty = false
    /// The number of open levels (1 while the top-level value's `encode(to:)` runs).
    private var openLevels = 0

    init() {
        buffer.reserveCapacity(256)
    }

    var codingPath: [any CodingKey] { path.map(\.codingKey) }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The position of the current level's value.
    var framePosition: PathPosition { PathPosition(depth: path.count) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let node = levelNode(existing: root, keyed: true, base: levelBase, position: framePosition)
        root = .container(node)
        return KeyedEncodingContainer(KeyedBytesContainer<Key>(encoder: self, node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let node = levelNode(existing: root, keyed: false, base: levelBase, position: framePosition)
        root = .container(node)
        return UnkeyedBytesContainer(encoder: self, node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    /// Encodes `value` (at `position` + `key`, nested `base` containers deep) as a new level whose text ends up
    /// at the current end of the buffer. Scalars and Foundation types are written directly.
    /// - Throws: `EncodingError.invalidValue` for a non-finite float, or whatever `value.encode(to:)` throws.
    func encodeValue<T: Encodable>(_ value: T, at position: PathPosition, _ key: PathKey?, base: Int) throws {
        if try encodeDirectly(value, at: position, key) { return }
        let start = buffer.count
        let savedRoot = root
        let savedBase = levelBase
        let savedCount = path.count
        path.append(contentsOf: position.suffix)
        if let key { path.append(key) }
        root = .empty
        levelBase = base
        openLevels += 1
        defer {
            openLevels -= 1
            root = savedRoot
            levelBase = savedBase
            path.removeSubrange(savedCount...)
        }
        try value.encode(to: self)
        finishLevel(from: start)
    }

    /// Replaces everything written since `start` with the level's final text.
    private func finishLevel(from start: Int) {
        switch root {
        case .empty:
            if openLevels == 1 { topLevelWasEmpty = true }
            let emptyStart = buffer.count
            buffer.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
            moveDown(emptyStart..<buffer.count, to: start)
        case .single(let range):
            moveDown(range, to: start)
        case .container(let node):
            moveDown(serialize(node), to: start)
        }
    }

    /// Moves `buffer[range]` to begin at `start` (≤ `range.lowerBound`) and drops everything after it.
    private func moveDown(_ range: Range<Int>, to start: Int) {
        if range.lowerBound != start {
            buffer.withUnsafeMutableBytes { bytes in
                let base = bytes.baseAddress!
                (base + start).copyMemory(from: base + range.lowerBound, byteCount: range.count)
            }
        }
        buffer.removeLast(buffer.count - (start + range.count))
    }

    /// The container for a level whose root is `existing`: the same container again, or a new one.
    /// Asking for a different kind of container than the level already has is a programming error (as in
    /// Foundation).
    func levelNode(existing: LevelRoot, keyed: Bool, base: Int, position: PathPosition) -> EncodingNode {
        switch existing {
        case .container(let node):
            precondition(node.isKeyed == keyed, "Attempt to push a different container kind at the same coding path.")
            return node
        case .single:
            preconditionFailure("Attempt to push a new container when a single value was already encoded.")
        case .empty:
            return makeNode(keyed: keyed, depth: base + 1, position: position)
        }
    }

    /// A new container whose opening bracket is written now.
    func makeNode(keyed: Bool, depth: Int, position: PathPosition) -> EncodingNode {
        if depth >= 512 { depthExceeded = true }
        let node = EncodingNode(isKeyed: keyed, openAt: buffer.count, depth: depth, position: position)
        buffer.append(keyed ? UInt8(ascii: "{") : UInt8(ascii: "["))
        return node
    }
}
