// Byte helpers for the ASCII parts of HTTP syntax (RFC 9110 §5.6).

/// Whether two byte sequences are equal when ASCII letters are folded to lower case.
func asciiCaseInsensitiveEqual<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
    guard a.count == b.count else { return false }
    for (x, y) in zip(a, b) where x != y {
        guard asciiLowercased(x) == asciiLowercased(y) else { return false }
    }
    return true
}

/// The byte with `A`…`Z` mapped to `a`…`z`; other bytes unchanged.
@inline(__always)
func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
}

/// Whether `byte` is optional whitespace: space or horizontal tab (RFC 9110 §5.6.3 OWS).
@inline(__always)
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
