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

    /// One allocation holds the state followed by its first container records, members and bytes; the arenas
    /// move to their own heap storage only when an encode outgrows these. The capacities keep the block within
    /// 1 KiB (about 1,000 bytes), the largest size glibc's malloc serves from its per-thread cache.
    private enum Scratch {
        static let nodeCapacity = 2
        static let elementCapacity = 6
        static var byteCapacity: Int { max(1008 - bytesOffset, 64) }
        static var nodesOffset: Int { align(MemoryLayout<EncoderState>.stride) }
        static var elementsOffset: Int { align(nodesOffset + nodeCapacity * MemoryLayout<EncodingNode>.stride) }
        static var bytesOffset: Int { align(elementsOffset + elementCapacity * MemoryLayout<EncodedElement>.stride) }
        static var size: Int { bytesOffset + byteCapacity }
        static func align(_ offset: Int) -> Int { (offset + 15) & ~15 }
    }

    init() {
        let block = UnsafeMutableRawPointer.allocate(byteCount: Scratch.size, alignment: 16)
        state = block.bindMemory(to: EncoderState.self, capacity: 1)
        state.initialize(
            to: EncoderState(
                bytes: ByteBuffer(
                    storage: (block + Scratch.bytesOffset).bindMemory(to: UInt8.self, capacity: Scratch.byteCapacity),
                    capacity: Scratch.byteCapacity),
                nodes: ScratchArena(
                    storage: (block + Scratch.nodesOffset).bindMemory(
                        to: EncodingNode.self, capacity: Scratch.nodeCapacity),
                    capacity: Scratch.nodeCapacity),
                elements: ScratchArena(
                    storage: (block + Scratch.elementsOffset).bindMemory(
                        to: EncodedElement.self, capacity: Scratch.elementCapacity),
                    capacity: Scratch.elementCapacity)))
    }

    deinit {
        state.pointee.bytes.release()
        state.pointee.nodes.release()
        state.pointee.elements.release()
        state.deinitialize(count: 1)
        UnsafeMutableRawPointer(state).deallocate()
    }

    /// The encoded text (valid once the top-level value is finished).
    var output: [UInt8] { state.pointee.bytes.array }

    var codingPath: [any CodingKey] { state.pointee.path.map(\.codingKey) }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The position of the current level's value.
    var framePosition: PathPosition { PathPosition(depth: state.pointee.path.count) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedBytesContainer<Key>(encoder: self, node: levelContainer(keyed: true)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedBytesContainer(encoder: self, node: levelContainer(keyed: false))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    /// The current level's container (created on first use).
    private func levelContainer(keyed: Bool) -> NodeHandle {
        if case .empty = state.pointee.root {
            let node = makeNode(keyed: keyed, depth: state.pointee.levelBase + 1, pathDepth: state.pointee.path.count)
            state.pointee.root = .container(node)
            return node
        }
        return levelNode(
            existing: state.pointee.root, keyed: keyed, base: state.pointee.levelBase, position: framePosition)
    }

    /// Encodes `value` (at `anchor` + `key`) as a new level whose text ends up at the current end of the
    /// buffer. Scalars, arrays of scalars and Foundation types are written directly.
    /// - Throws: `EncodingError.invalidValue` for a non-finite float, or whatever `value.encode(to:)` throws.
    func encodeValue<T: Encodable>(_ value: T, in anchor: PathAnchor, _ key: @autoclosure () -> PathKey?) throws {
        if try encodeDirectly(value, in: anchor, key()) { return }
        let state = self.state
        let base = self.base(of: anchor)
        // Only counts are saved: what the level adds to the arenas and arrays is dropped by truncating them.
        let mark = state.pointee.levelMark
        let start = state.pointee.bytes.count
        pushSteps(of: anchor)
        if let key = key() { state.pointee.path.append(key) }
        state.pointee.root = .empty
        state.pointee.levelBase = base
        state.pointee.openLevels += 1
        defer { state.pointee.restore(mark) }
        try value.encode(to: self)
        finishLevel(from: start)
    }

    /// Encodes the top-level value of a fresh encoder: `encodeValue(value, in: .frame, nil)` without saving and
    /// restoring an enclosing level (there is none).
    func encodeRoot<T: Encodable>(_ value: T) throws {
        if try encodeDirectly(value, in: .frame, nil) { return }
        state.pointee.openLevels = 1
        try value.encode(to: self)
        finishLevel(from: 0)
    }

    /// Replaces everything written since `start` with the level's final text.
    private func finishLevel(from start: Int) {
        switch state.pointee.root {
        case .empty:
            if state.pointee.openLevels == 1 { state.pointee.topLevelWasEmpty = true }
            state.pointee.bytes.count = start
            state.pointee.bytes.append(UInt8(ascii: "{"))
            state.pointee.bytes.append(UInt8(ascii: "}"))
        case .single(let range):
            state.pointee.bytes.moveDown(range, to: start)
        case .container(let node):
            state.pointee.bytes.moveDown(serialize(node.index), to: start)
        }
    }
}
