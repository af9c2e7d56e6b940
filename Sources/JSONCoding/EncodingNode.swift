/// One keyed or unkeyed container being encoded into `BytesEncoder.buffer`.
///
/// Members are recorded as byte ranges of the shared buffer as they are written; the container's text is put
/// together when the `encode(to:)` call that created it returns (see `BytesEncoder.serialize(_:)`). The opening
/// `{` / `[` is written at creation and `,` between members written back to back, so a container whose members
/// arrive contiguous (and, when keyed, already in sorted key order) is closed in place without copying.
///
/// ## Thread safety
/// Confined to the encode call that created it.
final class EncodingNode {
    /// Keyed (`{}`, members sorted by key on output) or unkeyed (`[]`, elements in order).
    let isKeyed: Bool
    /// Buffer offset of the opening bracket written at creation.
    let openAt: Int
    /// JSON nesting depth of this container (a top-level container is 1).
    let depth: Int
    /// Where this container sits in the coding path.
    let position: PathPosition
    /// Member keys, parallel to `elements` (keyed containers only).
    var keys: [String] = []
    /// Members in the order they were encoded.
    var elements: [EncodedElement] = []
    /// Content produced after a member's prefix: nested containers and super encoders.
    var slots: [EncodingSlot] = []
    /// Set once the container's text has been produced; writing afterwards is a programming error.
    var isSealed = false

    init(isKeyed: Bool, openAt: Int, depth: Int, position: PathPosition) {
        self.isKeyed = isKeyed
        self.openAt = openAt
        self.depth = depth
        self.position = position
    }
}

/// A member's bytes: `buffer[start..<end]` (for keyed members this includes the `"key":` prefix), followed by
/// the text of `slots[slot]` when `slot >= 0`.
struct EncodedElement {
    var start: Int
    var end: Int
    var slot = -1
    /// Whether a `,` was written at `start - 1` for this member.
    var commaBefore = false
}

/// Content of a member that is written later than the member itself.
enum EncodingSlot {
    /// A nested container.
    case container(EncodingNode)
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
    case container(EncodingNode)
}
