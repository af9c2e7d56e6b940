/// A growable run of bytes the JSON writers append to, writing straight into its memory: `[UInt8]` here, and the
/// encoder's manually managed buffer in JSONCoding.
///
/// The writers are generic over it and `@inlinable`, so each module that calls them gets a copy specialized for its
/// own output type: no witness-table calls on the per-byte path. (Public rather than `package`: with `package` the
/// compiler did not specialize the escaper in JSONCoding, and every string went through the generic copy.)
public protocol JSONByteSink {
    /// Appends up to `capacity` bytes: `body` gets the address of room for `capacity` bytes at the end (uninitialized
    /// or not: it must write every byte it keeps), writes from there and returns how many it wrote (0...`capacity`).
    mutating func appendBytes(capacity: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int)
}

extension Array: JSONByteSink where Element == UInt8 {
    /// Grows the array by `capacity` zero bytes for `body` to overwrite, then drops what it did not write. (Arrays
    /// have no public way to expose uninitialized room; the zero fill is a memset of bytes about to be written.)
    @inlinable
    public mutating func appendBytes(capacity: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        guard capacity > 0 else { return }
        let start = count
        append(contentsOf: repeatElement(0, count: capacity))
        let written = withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
        removeLast(capacity &- written)
    }
}
