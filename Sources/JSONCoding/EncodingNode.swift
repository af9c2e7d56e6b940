/// The mutable state of one encode. `BytesEncoder` keeps it behind a pointer so the hot paths (appending bytes,
/// recording members) mutate it without the dynamic exclusivity checks that stored properties of a class cost
/// on every access.
///
/// Containers and their members live in arenas of trivial records used as stacks: everything a level creates is
/// dropped when the level finishes (the storage is kept), so an encode allocates nothing per container beyond
/// what `Codable` itself requires. The state, the first bytes and the first records share one allocation (see
/// `BytesEncoder.init()`); the rarer nested positions, escaped keys and slots use ordinary arrays.
struct EncoderState {
    /// Output text, followed during encoding by not-yet-assembled member bytes.
    var bytes: ByteBuffer
    /// Container records of the open levels.
    var nodes: ScratchArena<EncodingNode>
    /// Members of those containers; each container links its own members through `next`.
    var elements: ScratchArena<EncodedElement>
    /// Positions of containers that sit deeper than their level's path (nested containers).
    var positions: [PathPosition] = []
    /// Keys that needed escaping, kept for ordering (other keys are compared as their bytes in `bytes`).
    var escapedKeys: [String] = []
    /// Coding path steps of the open levels, outermost first.
    var path: [PathKey] = []
    /// Deferred member content (nested containers, super encoders).
    var slots: [EncodingSlot] = []
    /// What the current level has produced.
    var root: LevelRoot = .empty
    /// JSON nesting depth around the current level's value (0 at the top).
    var levelBase = 0
    /// The number of open levels (1 while the top-level value's `encode(to:)` runs).
    var openLevels = 0
    /// Set when a container would be nested 512 or more deep (Foundation's writer limit); reported at the end.
    var depthExceeded = false
    /// Set when the top-level value encoded nothing (Foundation throws for that).
    var topLevelWasEmpty = false
    /// Source of unique container generations, so a stale handle is detected.
    var generations = 0
    /// The cache of a ``JSONEncodeCache/encode(_:)`` (nil for a plain encode): chunked arrays are written as
    /// placeholders and recorded in `chunkedArrays`.
    var chunkCache: UnsafeMutablePointer<JSONEncodeCache>?
    /// Chunked arrays met by a cached encode, in the order their placeholders were written.
    var chunkedArrays: [ChunkedArrayTrace] = []
    /// Set when a chunked array asked a plain encode for its cache (so ``JSONEncodeCache`` switches to cached encodes).
    var sawChunkedArray = false

    init(bytes: ByteBuffer, nodes: ScratchArena<EncodingNode>, elements: ScratchArena<EncodedElement>) {
        self.bytes = bytes
        self.nodes = nodes
        self.elements = elements
    }
}

extension EncoderState {
    /// What a level restores when it finishes: the enclosing level's root and depth, and the sizes of the
    /// stacks it may push onto.
    struct LevelMark {
        let root: LevelRoot
        let levelBase: Int
        let nodes, elements, path, slots, positions, escapedKeys: Int
    }

    var levelMark: LevelMark {
        LevelMark(
            root: root, levelBase: levelBase, nodes: nodes.count, elements: elements.count, path: path.count,
            slots: slots.count, positions: positions.count, escapedKeys: escapedKeys.count)
    }

    /// Closes the current level, dropping everything it added.
    mutating func restore(_ mark: LevelMark) {
        openLevels -= 1
        root = mark.root
        levelBase = mark.levelBase
        nodes.truncate(to: mark.nodes)
        elements.truncate(to: mark.elements)
        path.truncate(to: mark.path)
        slots.truncate(to: mark.slots)
        positions.truncate(to: mark.positions)
        escapedKeys.truncate(to: mark.escapedKeys)
    }
}

/// One keyed or unkeyed container being encoded into the shared buffer.
///
/// Members are recorded as byte ranges of the buffer as they are written; the container's text is put
/// together when the `encode(to:)` call that created it returns (see `BytesEncoder.serialize(_:)`). The opening
/// `{` / `[` is written at creation and `,` between members written back to back, so a container whose members
/// arrive contiguous (and, when keyed, already in sorted key order) is closed in place without copying.
struct EncodingNode {
    /// Keyed (`{}`, members sorted by key on output) or unkeyed (`[]`, elements in order).
    var isKeyed: Bool
    /// Buffer offset of the opening bracket written at creation.
    var openAt: Int
    /// JSON nesting depth of this container (a top-level container is 1).
    var depth: Int
    /// Where this container sits in the coding path: `EncoderState.positions[position]` when ≥ 0, else the
    /// first `pathDepth` steps of `EncoderState.path`.
    var position: Int
    var pathDepth: Int
    /// Unique among the containers of one encode.
    var generation: Int
    /// First and last member (indices into `EncoderState.elements`), -1 when empty.
    var first = -1
    var last = -1
    /// The number of members.
    var count = 0
    /// Whether some member's content is a slot (produced when the container is finished).
    var hasSlots = false
    /// Set once the container's text has been produced; writing afterwards is a programming error.
    var isSealed = false
}

/// A container's record in `EncoderState.nodes`, valid while that record has the same generation.
struct NodeHandle {
    let index: Int
    let generation: Int
}

/// A member's bytes: `bytes[start..<end]` (for keyed members this includes the `"key":` prefix), followed by
/// the text of `slots[slot]` (at `content` once produced) when `slot >= 0`. A trivial type: no references.
struct EncodedElement {
    var start: Int
    var end = 0
    /// Keyed members: the offset of the key's closing quote, so its text is `bytes[start + 1..<keyEnd]`
    /// (the key's UTF-8 unless `escapedKey >= 0`).
    var keyEnd = 0
    var slot = -1
    var content = 0..<0
    /// The container's next member, -1 for the last.
    var next = -1
    /// The index of the key in `EncoderState.escapedKeys` when its text needed escapes, else -1.
    var escapedKey = -1
    /// Whether a `,` was written at `start - 1` for this member.
    var commaBefore = false
}

/// Content of a member that is written later than the member itself.
enum EncodingSlot {
    /// A nested container (an index into `EncoderState.nodes`).
    case container(Int)
    /// A `superEncoder()` / `superEncoder(forKey:)` encoder.
    case encoder(SuperEncoder)
}

/// What one `encode(to:)` call produced at its own level.
enum LevelRoot {
    /// Nothing yet (written as `{}` if it stays so, as Foundation does).
    case empty
    /// One value through the single-value container: its bytes.
    case single(Range<Int>)
    /// A keyed or unkeyed container.
    case container(NodeHandle)
}
