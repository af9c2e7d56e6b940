import JSON

/// A growable run of bytes in manually managed memory: an append is a capacity check and a store, with no
/// uniqueness check or copy-on-write. It may start in storage it does not own (the encoder's scratch block);
/// growing moves it to the heap, and `release()` frees only heap storage.
///
/// ## Thread safety
/// Owned by one encode call; never shared.
struct ByteBuffer {
    /// The memory: a ``ScratchArena`` of bytes (it grows, and frees only heap storage, the same way).
    private var storage: ScratchArena<UInt8>
    /// The first byte; `count` bytes from here are initialized.
    var base: UnsafeMutablePointer<UInt8> { storage.base }
    /// The number of bytes written.
    var count: Int {
        get { storage.count }
        set { storage.count = newValue }
    }

    /// A buffer writing into `storage` (`capacity` bytes, owned by the caller) until it needs more.
    init(storage: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.storage = ScratchArena(storage: storage, capacity: capacity)
    }

    /// Frees heap storage (the buffer must not be used afterwards).
    func release() { storage.release() }

    /// The address of the next byte, with room for at least `extra` bytes; advance `count` after writing them.
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> { storage.reserve(extra) }

    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    mutating func append(_ byte: UInt8) {
        reserve(1).initialize(to: byte)
        count &+= 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count).initialize(from: source, count: bytes.count)
        count &+= bytes.count
    }

    /// Appends the UTF-8 bytes of `string`.
    mutating func append(utf8 string: String) {
        var string = string
        string.withUTF8 { append($0) }
    }

    /// Appends `buffer[range]` (already written bytes) again at the end.
    mutating func appendCopy(of range: Range<Int>) {
        let length = range.count
        guard length > 0 else { return }
        let target = reserve(length)
        UnsafeMutableRawPointer(target).copyMemory(from: base + range.lowerBound, byteCount: length)
        count &+= length
    }

    /// Moves `buffer[range]` to begin at `start` (≤ `range.lowerBound`; the ranges may overlap) and drops every
    /// byte after the moved text.
    mutating func moveDown(_ range: Range<Int>, to start: Int) {
        if range.lowerBound != start, !range.isEmpty {
            UnsafeMutableRawPointer(base + start).copyMemory(from: base + range.lowerBound, byteCount: range.count)
        }
        count = start + range.count
    }

    /// The byte at `offset` (< `count`).
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    subscript(offset: Int) -> UInt8 { base[offset] }

    /// A fresh array holding the written bytes.
    var array: [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }
}

extension ByteBuffer: JSONByteSink {
    /// Room for `capacity` bytes straight in the buffer (no zero fill), for the JSON writers (see ``JSON/JSONByteSink``).
    @inline(__always)
    mutating func appendBytes(capacity: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        count &+= body(reserve(capacity))
    }
}
