/// The encoded JSON of the chunks (``JSONEncodableChunk``) of one value's recent encodes, so that encoding the next
/// version of that value (a store's next state) encodes only the chunks that changed: the cost of an encode then
/// grows with what changed, plus one copy of the text, instead of with the whole value.
///
/// Entries are keyed by the chunk box's identity and hold the box, which keeps it alive (an identity cannot be
/// reused while cached) and shared (a write to it makes a fresh box instead). After each encode, entries of
/// boxes that encode did not meet are dropped: the cache holds about one version's chunks.
///
/// A value without chunked arrays is encoded as ``JSONBytesEncoder`` does (its first encode finds out; from the
/// first chunked array met on, encodes are cached), so keeping a cache costs such values nothing.
///
/// ```swift
/// var cache = JSONEncodeCache()
/// let first = try cache.encode(state)        // every chunk encoded
/// state.items.append(item)
/// let next = try cache.encode(state)         // one chunk encoded, the rest copied
/// let ops = JSONIncrementalEncoding.patch(from: first, to: next)   // RFC 6902 ops, or nil
/// ```
///
/// ## Thread safety
/// A value (Sendable); one encode at a time mutates it (`mutating`), so its owner serialises them (the server:
/// the store's executor, under the store's reply lock).
public struct JSONEncodeCache: Sendable {
    struct Entry: Sendable {
        let box: ChunkIdentity
        let encoded: JSONEncodedChunk
        var generation: UInt64
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    private var generation: UInt64 = 0
    /// Whether a value encoded here held a chunked array (from then on encodes are cached).
    public private(set) var isCaching = false

    /// An empty cache.
    public init() {}

    /// How many chunks' JSON is kept (tests, metrics).
    public var chunkCount: Int { entries.count }

    /// Encodes `value` as ``JSONBytesEncoder/encode(_:)`` does, byte for byte, reusing the JSON of chunks met in
    /// the previous encode.
    /// - Returns: the text and, when the value holds chunked arrays, what ``JSONIncrementalEncoding/patch(from:to:)``
    ///   needs.
    /// - Throws: what ``JSONBytesEncoder/encode(_:)`` throws (an element's error has its path within the element).
    public mutating func encode<T: Encodable>(_ value: T) throws -> JSONIncrementalEncoding {
        if !isCaching {
            let encoder = BytesEncoder()
            try JSONBytesEncoder.run(value, with: encoder)
            guard encoder.state.pointee.sawChunkedArray else { return JSONIncrementalEncoding(bytes: encoder.output) }
            isCaching = true
        }
        generation &+= 1
        let encoder = BytesEncoder()
        defer { encoder.state.pointee.chunkCache = nil }
        try withUnsafeMutablePointer(to: &self) { cache in
            encoder.state.pointee.chunkCache = cache
            try JSONBytesEncoder.run(value, with: encoder)
        }
        let current = generation
        if entries.count > 0, entries.values.contains(where: { $0.generation != current }) {
            entries = entries.filter { $0.value.generation == current }
        }
        return JSONIncrementalEncoding(skeleton: encoder.output, arrays: encoder.state.pointee.chunkedArrays)
    }

    /// The JSON of `chunk`'s elements: kept, or encoded now and kept.
    mutating func encoded<Chunk: JSONEncodableChunk>(_ chunk: Chunk) throws -> JSONEncodedChunk {
        let id = ObjectIdentifier(chunk)
        if let index = entries.index(forKey: id) {
            entries.values[index].generation = generation
            return entries.values[index].encoded
        }
        let encoded = try JSONEncodedChunk(chunk.elements)
        entries[id] = Entry(box: ChunkIdentity(box: chunk), encoded: encoded, generation: generation)
        return encoded
    }
}
