/// The mutable state of one encode. `BytesEncoder` keeps it behind a pointer so the hot paths (appending bytes,
/// recording members) mutate it without the dynamic exclusivity checks that stored properties of a class cost
/// on every access.
///
/// Containers, their members and their slots live in three arenas used as stacks: everything a level creates
/// is dropped when the level finishes (arrays keep their capacity), so an encode allocates a constant number
/// of arrays however many containers it writes.
struct EncoderState {
    /// Output text, followed during encoding by not-yet-assembled member bytes.
    var buffer: [UInt8] = []
    /// Scratch space for one container's member order.
    var order: [Int] = []
    /// Coding path steps of the open levels, outermost first.
    var path: [PathKey] = []
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
    /// Container records of the open levels.
    var nodes: [EncodingNode] = []
    /// Members of those containers; each container links its own members through `next`.
    var elements: [EncodedElement] = []
    /// Deferred member content (nested containers, super encoders).
    var slots: [EncodingSlot] = []
    /// Source of unique container generations, so a stale handle is detected.
    var generations = 0
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
    /// Where this container sits in the coding path.
    var position: PathPosition
    /// Unique among the containers of one encode.
    var generation: Int
    /// First and last member (indices into `EncoderState.elements`), -1 when empty.
    var first = -1
    var last = -1
    /// The number of members.
    var count = 0
    /// Set once the container's text has been produced; writing afterwards is a programming error.
    var isSealed = false
}

/// A container's record in `EncoderState.nodes`, valid while that record has the same generation.
struct NodeHandle {
    let index: Int
    let generation: Int
}

/// A member's bytes: `buffer[start..<end]` (for keyed members this includes the `"key":` prefix), followed by
/// the text of `slots[slot]` (at `content` once produced) when `slot >= 0`.
struct EncodedElement {
    var start: Int
    var end = 0
    var slot = -1
    var content = 0..<0
    /// Whether a `,` was written at `start - 1` for this member.
    var commaBefore = false
    /// The container's next member, -1 for the last.
    var next = -1
    /// The member's key (empty for unkeyed elements).
    var key = ""
    /// The key's first 8 UTF-8 bytes, big-endian and zero-padded: comparing these decides most key orders.
    var keyPrefix: UInt64 = 0
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
