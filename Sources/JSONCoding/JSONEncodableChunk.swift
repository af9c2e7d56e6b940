/// A run of an array's elements held in a heap box that is never written while shared (a copy-on-write chunk):
/// while the same box is alive its elements are the same, so their JSON can be kept by the box's identity.
///
/// `Statehouse.ChunkedArray` holds its elements in such boxes; ``JSONEncodeCache`` keeps each box's encoded
/// elements and re-encodes only boxes it has not seen (a write replaces a shared box with a fresh one).
///
/// ## Thread safety
/// A box is only read once shared (a writer first makes it unique, copying it if needed). The cache reads its
/// elements only during the encode that meets it, on that encode's thread; afterwards it keeps the box only for
/// its identity (never read again).
public protocol JSONEncodableChunk: AnyObject {
    associatedtype Element: Encodable
    /// The elements, in order (read without copying: the box keeps the array).
    var elements: [Element] { get }
}

/// An `Encoder` that can write a JSON array given as chunks (``JSONEncodableChunk``) from a cache of their encoded
/// elements: the encoder of ``JSONEncodeCache/encode(_:)``.
///
/// A type whose elements live in chunks asks for it in `encode(to:)` (`encoder as? any JSONChunkedArrayEncoder`),
/// and encodes its elements one by one through an unkeyed container when the encoder is another one or answers
/// `false`.
public protocol JSONChunkedArrayEncoder: Encoder {
    /// Writes `chunks`' elements, in order, as one JSON array (`[` elements `,`-separated `]`): the same bytes as an
    /// unkeyed container holding every element. Elements already encoded for the same box are not encoded again.
    ///
    /// - Parameter chunks: the boxes, in order (an empty box adds nothing).
    /// - Returns: `false` (and writes nothing) when this encoder keeps no cache: encode the elements yourself.
    /// - Throws: whatever an element's `encode(to:)` throws (its coding path starts at the element, not the root),
    ///   or `EncodingError.invalidValue` for a non-finite `Double` / `Float` or containers nested 512 or more
    ///   deep within one element.
    func encodeChunkedArray<Chunk: JSONEncodableChunk>(_ chunks: [Chunk]) throws -> Bool
}

/// A chunk box kept for its identity alone: compared with `===`, never read (so holding it is safe from any
/// thread, whatever the box holds).
///
/// ## Thread safety
/// Sendable: only the reference is used (its identity), never the object behind it.
struct ChunkIdentity: @unchecked Sendable {
    let box: AnyObject

    static func === (lhs: ChunkIdentity, rhs: ChunkIdentity) -> Bool { lhs.box === rhs.box }
}
