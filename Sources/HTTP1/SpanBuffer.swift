/// A growable byte buffer for one span of a request head (target, version, field name or value), reused from
/// request to request.
///
/// Unlike `[UInt8]`, emptying it is one store and appending is a capacity check plus a copy, with no uniqueness
/// checks: it is owned by exactly one ``RequestAccumulator`` (so it is noncopyable) and frees its storage when
/// that goes away.
///
/// ## Thread safety
/// Confined to the thread of the parser that owns it.
struct SpanBuffer: ~Copyable {
    /// The storage, or `nil` before the first append.
    private var base: UnsafeMutablePointer<UInt8>?
    /// How many bytes are held.
    private(set) var count = 0
    /// How many bytes fit in ``base``.
    private var capacity = 0

    /// Storage above this many bytes is freed by ``removeAll()`` instead of kept for the next request.
    static let keptCapacity = 4096

    init() {}

    deinit {
        base?.deallocate()
    }

    /// The bytes held; valid until the next mutation.
    var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base, count: count)
    }

    /// The first byte, or `nil` when empty.
    var first: UInt8? {
        count > 0 ? base?[0] : nil
    }

    /// Appends `bytes`, growing the storage (at least doubling it) when they do not fit.
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(toAtLeast: count + bytes.count) }
        (base! + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Empties the buffer, keeping its storage unless it grew past ``keptCapacity``.
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    mutating func removeAll() {
        count = 0
        if capacity > Self.keptCapacity {
            base?.deallocate()
            base = nil
            capacity = 0
        }
    }

    /// The bytes held as a string (invalid UTF-8 is repaired with U+FFFD, as `String(decoding:as:)` does).
    func string() -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Moves the contents to storage of at least `minimum` bytes.
    private mutating func grow(toAtLeast minimum: Int) {
        let newCapacity = max(minimum, capacity * 2, 32)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        if let base {
            newBase.initialize(from: base, count: count)
            base.deallocate()
        }
        base = newBase
        capacity = newCapacity
    }
}
