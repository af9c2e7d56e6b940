/// The JSON of one chunk's elements: each element's text, `,`-separated, without brackets (`{"a":1},{"a":2}`),
/// and where each element ends.
///
/// ## Thread safety
/// An immutable value; Sendable.
struct JSONEncodedChunk: Sendable {
    /// The elements' text joined by `,`.
    let bytes: [UInt8]
    /// The end offset (exclusive) of each element in ``bytes``; element `i` starts at 0 or `ends[i - 1] + 1`.
    let ends: [Int]

    var count: Int { ends.count }

    /// Encodes `elements` one by one with a plain ``JSONBytesEncoder`` (sorted keys: equal values, equal bytes).
    /// - Throws: what ``JSONBytesEncoder/encode(_:)`` throws for an element.
    init<Element: Encodable>(_ elements: [Element]) throws {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        ends.reserveCapacity(elements.count)
        let encoder = JSONBytesEncoder()
        for element in elements {
            if !ends.isEmpty { bytes.append(UInt8(ascii: ",")) }
            bytes += try encoder.encode(element)
            ends.append(bytes.count)
        }
        self.bytes = bytes
        self.ends = ends
    }

    /// The text of element `index`.
    func element(_ index: Int) -> ArraySlice<UInt8> {
        bytes[(index == 0 ? 0 : ends[index - 1] + 1)..<ends[index]]
    }
}

/// One chunked array met during a cached encode: where it sits and its chunks, in order. The chunks are kept
/// alive by the trace, so an identity compared later is still the same box.
struct ChunkedArrayTrace: Sendable {
    /// RFC 6901 reference tokens of the array's place in the value (from the coding path).
    let tokens: [String]
    let chunks: [(box: ChunkIdentity, encoded: JSONEncodedChunk)]

    /// The array's text in parts, in order: `[`, the non-empty chunks with `,` between them, `]`. What the text is
    /// put together from (``JSONIncrementalEncoding``), counted by ``textCount`` and compared by
    /// ``JSONIncrementalEncoding/sharedEnds(_:_:)``.
    func forEachPart(
        punctuation: (UInt8) -> Void, chunk: (_ box: ChunkIdentity, _ encoded: JSONEncodedChunk) -> Void
    ) {
        punctuation(UInt8(ascii: "["))
        var first = true
        for (box, encoded) in chunks where encoded.count > 0 {
            if !first { punctuation(UInt8(ascii: ",")) }
            chunk(box, encoded)
            first = false
        }
        punctuation(UInt8(ascii: "]"))
    }

    /// Bytes of the array's text: brackets, the non-empty chunks and the commas between them.
    var textCount: Int {
        var total = 0
        forEachPart(punctuation: { _ in total += 1 }, chunk: { total += $1.bytes.count })
        return total
    }
}
