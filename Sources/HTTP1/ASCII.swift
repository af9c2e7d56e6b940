// Byte helpers for the ASCII parts of HTTP syntax (RFC 9110 §5.6).

/// Whether two byte sequences are equal when ASCII letters are folded to lower case.
func asciiCaseInsensitiveEqual<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
    guard a.count == b.count else { return false }
    for (x, y) in zip(a, b) where x != y {
        guard asciiLowercased(x) == asciiLowercased(y) else { return false }
    }
    return true
}

/// Whether the UTF-8 of two strings is equal when ASCII letters are folded to lower case (field names).
///
/// Native strings are compared in place, byte by byte; the lengths are compared first.
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
func asciiCaseInsensitiveEqual(_ a: String, _ b: String) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }
    let compared = a.utf8.withContiguousStorageIfAvailable { a in
        b.utf8.withContiguousStorageIfAvailable { b in asciiCaseInsensitiveEqual(a, b, count: a.count) }
    }
    if let compared, let result = compared { return result }
    return asciiCaseInsensitiveEqual(a.utf8, b.utf8)
}

/// Whether the `count` bytes of `a` and `b` are equal when ASCII letters are folded to lower case.
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
private func asciiCaseInsensitiveEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, count: Int) -> Bool {
    guard let a = a.baseAddress, let b = b.baseAddress else { return count == 0 }
    for offset in 0..<count where a[offset] != b[offset] {
        guard asciiLowercased(a[offset]) == asciiLowercased(b[offset]) else { return false }
    }
    return true
}

/// Whether `bytes`, with ASCII letters folded to lower case, equal `lowercase` (which must be lower case).
///
/// The lengths are compared first, so a name of another length costs one comparison.
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
func asciiCaseInsensitiveEqual(_ bytes: UnsafeBufferPointer<UInt8>, lowercase: StaticString) -> Bool {
    let count = lowercase.utf8CodeUnitCount
    guard bytes.count == count, let base = bytes.baseAddress else { return bytes.count == count }
    let wanted = lowercase.utf8Start
    for offset in 0..<count where asciiLowercased(base[offset]) != wanted[offset] { return false }
    return true
}

/// Whether the UTF-8 of `text`, with ASCII letters folded to lower case, equals `lowercase` (lower case).
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
func asciiCaseInsensitiveEqual(_ text: String, lowercase: StaticString) -> Bool {
    guard text.utf8.count == lowercase.utf8CodeUnitCount else { return false }
    return text.utf8.withContiguousStorageIfAvailable { asciiCaseInsensitiveEqual($0, lowercase: lowercase) }
        ?? asciiCaseInsensitiveEqual(text.utf8, UnsafeBufferPointer(start: lowercase.utf8Start,
            count: lowercase.utf8CodeUnitCount))
}

/// Whether `count` bytes at `a` and at `b` are equal, compared eight bytes at a time.
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
func bytesEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
    let a = UnsafeRawPointer(a)
    let b = UnsafeRawPointer(b)
    var offset = 0
    while offset + 8 <= count {
        guard a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        else { return false }
        offset += 8
    }
    while offset < count {
        guard a.load(fromByteOffset: offset, as: UInt8.self) == b.load(fromByteOffset: offset, as: UInt8.self)
        else { return false }
        offset += 1
    }
    return true
}

/// The byte with `A`…`Z` mapped to `a`…`z`; other bytes unchanged.
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
}

/// Whether `byte` is optional whitespace: space or horizontal tab (RFC 9110 §5.6.3 OWS).
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
func isOWS(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
}

/// The slice of `bytes` without leading and trailing spaces and tabs.
func trimmingOWS<C: BidirectionalCollection<UInt8>>(_ bytes: C) -> C.SubSequence {
    var start = bytes.startIndex
    var end = bytes.endIndex
    while start < end, isOWS(bytes[start]) { start = bytes.index(after: start) }
    while start < end, isOWS(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
    return bytes[start..<end]
}
