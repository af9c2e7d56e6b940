import JSONCoding

extension ChunkedArrayChunk: JSONEncodableChunk where Element: Encodable {}

extension ChunkedArray: Encodable where Element: Encodable {
    /// A JSON array of the elements, as `[Element]` encodes. Through a caching encoder
    /// (`JSONCoding.JSONEncodeCache`) the chunks' kept JSON is reused; through any other encoder each element is
    /// encoded in an unkeyed container.
    /// - Throws: what an element's `encode(to:)` throws.
    public func encode(to encoder: any Encoder) throws {
        if let chunked = encoder as? any JSONChunkedArrayEncoder, try chunked.encodeChunkedArray(chunks) { return }
        var container = encoder.unkeyedContainer()
        for chunk in chunks { try container.encode(contentsOf: chunk.elements) }
    }
}

extension ChunkedArray: Decodable where Element: Decodable {
    /// Reads a JSON array of elements.
    /// - Throws: `DecodingError` as `[Element]` does.
    public init(from decoder: any Decoder) throws {
        self.init(try [Element](from: decoder))
    }
}
