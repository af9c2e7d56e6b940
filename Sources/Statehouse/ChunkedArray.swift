/// An array for a big list in a store's state, whose JSON is re-encoded per change only where it changed: its
/// elements live in copy-on-write chunks of at most ``chunkCapacity`` elements (heap boxes shared between copies
/// until one of them writes), so a write copies and re-encodes one chunk, not the list.
///
/// It is a `RandomAccessCollection`, `MutableCollection` and `RangeReplaceableCollection` of `Element` with
/// `Int` indices from 0 (`items[3]`, `items.append(x)`, `items.insert(x, at: 0)`, `items.removeAll { … }`), and
/// `Codable` as a plain JSON array (`[e0,e1,…]`: the same bytes as `[Element]`), so a state switching a field
/// from `[Item]` to `ChunkedArray<Item>` keeps its wire JSON exactly.
///
/// ```swift
/// struct State: Codable, Equatable, Sendable {
///     var items: ChunkedArray<Item> = []
/// }
/// ```
///
/// The server encodes a state through a per-store encode cache (`JSONCoding.JSONEncodeCache`): the JSON of each
/// chunk is kept while the chunk is, so after a change only the chunks written since the last version are
/// encoded, and `format=patch` streams get RFC 6902 ops for the changed elements (`/items/123`, `/items/-`)
/// without parsing or diffing the whole state (docs/architecture.md "Big states").
///
/// Costs (n elements, c = n / ``chunkCapacity`` chunks): reading an index O(log c); writing an element copies
/// its chunk when shared (O(``chunkCapacity``)); append amortized O(1) plus, when the chunk list is shared, a copy
/// of its c references; insert or remove at an index O(``chunkCapacity`` + c). `==` skips chunks that are the same
/// box on both sides, so comparing a state with its previous version costs about what changed.
///
/// - **Equatable / Hashable** (when `Element` is): element by element, as `Array`.
/// - **Encodable** / **Decodable** when `Element` is.
///
/// ## Thread safety
/// A value type; `Sendable` when `Element` is. A chunk is never written while shared: a write first makes it
/// unique (copying it if needed).
public struct ChunkedArray<Element> {
    /// The non-empty chunks, in order.
    var chunks: [ChunkedArrayChunk<Element>]
    /// `starts[k]`: the index of chunk `k`'s first element.
    var starts: [Int]
    /// The number of elements.
    public private(set) var count: Int

    /// Most elements a chunk holds: an edit re-encodes about this many elements.
    public static var chunkCapacity: Int { 64 }

    /// An empty array.
    public init() {
        chunks = []
        starts = []
        count = 0
    }

    /// The elements of `elements`, in order, in full chunks.
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init()
        let all = Array(elements)
        var at = 0
        while at < all.count {
            let end = Swift.min(at + Self.chunkCapacity, all.count)
            chunks.append(ChunkedArrayChunk(Array(all[at..<end])))
            starts.append(at)
            at = end
        }
        count = all.count
    }

    /// The chunk holding `index` (< ``count``) and the index within it.
    func locate(_ index: Int) -> (chunk: Int, offset: Int) {
        precondition(index >= 0 && index < count, "ChunkedArray index \(index) out of range 0..<\(count)")
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return (low, index - starts[low])
    }

    /// Recomputes `starts` from chunk `from` on.
    mutating func restart(from first: Int) {
        starts.removeSubrange(Swift.min(first, starts.count)...)
        var at = first == 0 ? 0 : starts[first - 1] + chunks[first - 1].elements.count
        for chunk in chunks[first...] {
            starts.append(at)
            at += chunk.elements.count
        }
        count = at
    }
}

/// The heap box of one chunk of a ``ChunkedArray``: written only while uniquely referenced.
final class ChunkedArrayChunk<Element> {
    /// The chunk's elements (1 to ``ChunkedArray/chunkCapacity``).
    var elements: [Element]

    init(_ elements: [Element]) {
        self.elements = elements
    }
}

extension ChunkedArrayChunk: @unchecked Sendable where Element: Sendable {}

extension ChunkedArray: Sendable where Element: Sendable {}

extension ChunkedArray: ExpressibleByArrayLiteral {
    /// The literal's elements.
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension ChunkedArray: CustomStringConvertible, CustomDebugStringConvertible {
    /// As an `Array` of the elements prints.
    public var description: String { Array(self).description }
    public var debugDescription: String { "ChunkedArray(\(Array(self).debugDescription))" }
}
