/// Chunked arrays in a cached encode: each is written as a placeholder in the text (the *skeleton*) and recorded
/// with its chunks' cached JSON; ``JSONIncrementalEncoding`` puts the final text together.
extension BytesEncoder: JSONChunkedArrayEncoder {
    /// The byte that opens a placeholder: `0x01`, then the array's index in decimal digits, then `0x02`. JSON text
    /// never holds these bytes unescaped (strings and keys escape control characters), so a placeholder cannot be
    /// mistaken for written text.
    static let placeholderOpen: UInt8 = 0x01
    static let placeholderClose: UInt8 = 0x02

    func encodeChunkedArray<Chunk: JSONEncodableChunk>(_ chunks: [Chunk]) throws -> Bool {
        let state = self.state
        guard let cache = state.pointee.chunkCache else {
            state.pointee.sawChunkedArray = true
            return false
        }
        var traced: [(box: ChunkIdentity, encoded: JSONEncodedChunk)] = []
        traced.reserveCapacity(chunks.count)
        for chunk in chunks { traced.append((ChunkIdentity(box: chunk), try cache.pointee.encoded(chunk))) }
        let tokens = state.pointee.path.map { key -> String in
            switch key {
            case .key(let key): key.stringValue
            case .index(let index): String(index)
            }
        }
        let index = state.pointee.chunkedArrays.count
        state.pointee.chunkedArrays.append(ChunkedArrayTrace(tokens: tokens, chunks: traced))
        single { encoder in
            encoder.state.pointee.bytes.append(Self.placeholderOpen)
            encoder.state.pointee.bytes.append(utf8: String(index))
            encoder.state.pointee.bytes.append(Self.placeholderClose)
        }
        return true
    }
}
