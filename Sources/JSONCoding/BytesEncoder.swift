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
    /// All mutable state, behind a pointer (see `EncoderState`). Owned by this object.
    let state: UnsafeMutablePointer<EncoderState>

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: EncoderState())
        state.pointee.buffer.reserveCapacity(256)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The encoded text (valid once the top-level value is finished).
    var output: [UInt8] { state.pointee.buffer }

    var codingPath: [any CodingKey] { state.pointee.path.map(\.codingKey) }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The position of the current level's value.
    var framePosition: PathPosition { PathPosition(depth: state.pointee.path.count) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let node = levelNode(existing: state.pointee.root, keyed: true, base: state.pointee.levelBase, position: framePosition)
        state.pointee.root = .container(node)
        return KeyedEncodingContainer(KeyedBytesContainer<Key>(encoder: self, node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let node = levelNode(existing: state.pointee.root, keyed: false, base: state.pointee.levelBase, position: framePosition)
        state.pointee.root = .container(node)
        return UnkeyedBytesContainer(encoder: self, node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    /// Encodes `value` (at `anchor` + `key`) as a new level whose text ends up at the current end of the
    /// buffer. Scalars, arrays of scalars and Foundation types are written directly.
    /// - Throws: `EncodingError.invalidValue` for a non-finite float, or whatever `value.encode(to:)` throws.
    func encodeValue<T: Encodable>(_ value: T, in anchor: PathAnchor, _ key: PathKey?) throws {
        if try encodeDirectly(value, in: anchor, key) { return }
        let position = self.position(of: anchor)
        let base = self.base(of: anchor)
        // Only scalars are saved: holding a copy of the state would make every later append copy the buffer.
        let savedRoot = state.pointee.root
        let savedBase = state.pointee.levelBase
        let savedNodes = state.pointee.nodes.count
        let savedElements = state.pointee.elements.count
        let savedSlots = state.pointee.slots.count
        let savedPathCount = state.pointee.path.count
        let start = state.pointee.buffer.count
        position.pushSteps(onto: &state.pointee.path)
        if let key { state.pointee.path.append(key) }
        state.pointee.root = .empty
        state.pointee.levelBase = base
        state.pointee.openLevels += 1
        defer {
            state.pointee.openLevels -= 1
            state.pointee.root = savedRoot
            state.pointee.levelBase = savedBase
            state.pointee.nodes.removeLast(state.pointee.nodes.count - savedNodes)
            state.pointee.elements.removeLast(state.pointee.elements.count - savedElements)
            state.pointee.slots.removeLast(state.pointee.slots.count - savedSlots)
            let extra = state.pointee.path.count - savedPathCount
            if extra > 0 { state.pointee.path.removeLast(extra) }
        }
        try value.encode(to: self)
        finishLevel(from: start)
    }

    /// Replaces everything written since `start` with the level's final text.
    private func finishLevel(from start: Int) {
        switch state.pointee.root {
        case .empty:
            if state.pointee.openLevels == 1 { state.pointee.topLevelWasEmpty = true }
            let emptyStart = state.pointee.buffer.count
            state.pointee.buffer.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
            moveDown(emptyStart..<emptyStart + 2, to: start)
        case .single(let range):
            moveDown(range, to: start)
        case .container(let node):
            moveDown(serialize(node.index), to: start)
        }
    }

    /// Moves `buffer[range]` to begin at `start` (≤ `range.lowerBound`) and drops everything after it.
    private func moveDown(_ range: Range<Int>, to start: Int) {
        if range.lowerBound != start {
            state.pointee.buffer.withUnsafeMutableBytes { bytes in
                let base = bytes.baseAddress!
                (base + start).copyMemory(from: base + range.lowerBound, byteCount: range.count)
            }
        }
        state.pointee.buffer.removeLast(state.pointee.buffer.count - (start + range.count))
    }

    /// The coding path position that `anchor` stands for.
    func position(of anchor: PathAnchor) -> PathPosition {
        switch anchor {
        case .frame: return framePosition
        case .node(let node): return state.pointee.nodes[node.index].position
        case .fixed(let position, _): return position
        }
    }

    /// The JSON nesting depth around a value written at `anchor`.
    func base(of anchor: PathAnchor) -> Int {
        switch anchor {
        case .frame: return state.pointee.levelBase
        case .node(let node): return state.pointee.nodes[node.index].depth
        case .fixed(_, let base): return base
        }
    }

    /// The container for a level whose root is `existing`: the same container again, or a new one.
    /// Asking for a different kind of container than the level already has is a programming error (as in
    /// Foundation).
    func levelNode(existing: LevelRoot, keyed: Bool, base: Int, position: PathPosition) -> NodeHandle {
        switch existing {
        case .container(let node):
            precondition(
                state.pointee.nodes[node.index].isKeyed == keyed,
                "Attempt to push a different container kind at the same coding path.")
            return node
        case .single:
            preconditionFailure("Attempt to push a new container when a single value was already encoded.")
        case .empty:
            return makeNode(keyed: keyed, depth: base + 1, position: position)
        }
    }

    /// A new container record whose opening bracket is written now.
    func makeNode(keyed: Bool, depth: Int, position: PathPosition) -> NodeHandle {
        if depth >= 512 { state.pointee.depthExceeded = true }
        state.pointee.generations += 1
        let handle = NodeHandle(index: state.pointee.nodes.count, generation: state.pointee.generations)
        state.pointee.nodes.append(
            EncodingNode(
                isKeyed: keyed, openAt: state.pointee.buffer.count, depth: depth, position: position,
                generation: handle.generation))
        state.pointee.buffer.append(keyed ? UInt8(ascii: "{") : UInt8(ascii: "["))
        return handle
    }
}

/// Where a value being written sits, resolved to a `PathPosition` only when needed (errors, new levels).
enum PathAnchor {
    /// The current level's own value (the single-value container).
    case frame
    /// A member of a container.
    case node(NodeHandle)
    /// A super encoder's value, `base` containers deep.
    case fixed(PathPosition, base: Int)
}
