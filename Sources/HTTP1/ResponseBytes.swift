// Raw byte writers for response serialization: each copies into memory the caller sized beforehand and returns
// the position after the last byte written.

/// Copies the UTF-8 of `text` to `cursor`.
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
func copy(_ text: StaticString, to cursor: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
    cursor.initialize(from: text.utf8Start, count: text.utf8CodeUnitCount)
    return cursor + text.utf8CodeUnitCount
}

/// Copies `bytes` to `cursor`.
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
func copy(_ bytes: UnsafeBufferPointer<UInt8>, to cursor: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
    guard let source = bytes.baseAddress else { return cursor }
    cursor.initialize(from: source, count: bytes.count)
    return cursor + bytes.count
}

/// Copies the UTF-8 of `text` to `cursor` with CR, LF and NUL turned into spaces (a field can never end a line
/// early, RFC 9112 §5: no CR or LF inside a field value).
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
func copySanitized(_ text: String, to cursor: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
    if let end = text.utf8.withContiguousStorageIfAvailable({ copySanitized($0, to: cursor) }) { return end }
    var cursor = cursor
    for byte in text.utf8 {
        cursor.initialize(to: sanitized(byte))
        cursor += 1
    }
    return cursor
}

/// Copies `bytes` to `cursor`, then turns CR, LF and NUL in the copy into spaces.
///
/// The copy is checked eight bytes at a time for any byte below 0x0E; only a word holding one is looked at byte
/// by byte, so ordinary text costs one test per eight bytes.
func copySanitized(_ bytes: UnsafeBufferPointer<UInt8>, to cursor: UnsafeMutablePointer<UInt8>)
    -> UnsafeMutablePointer<UInt8>
{
    let end = copy(bytes, to: cursor)
    let count = bytes.count
    let raw = UnsafeRawPointer(cursor)
    var offset = 0
    while offset + 8 <= count {
        let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        if (word &- 0x0E0E_0E0E_0E0E_0E0E) & ~word & 0x8080_8080_8080_8080 != 0 {
            sanitize(cursor + offset, count: 8)
        }
        offset += 8
    }
    sanitize(cursor + offset, count: count - offset)
    return end
}

/// Turns CR, LF and NUL among the `count` bytes at `start` into spaces.
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
private func sanitize(_ start: UnsafeMutablePointer<UInt8>, count: Int) {
    for index in 0..<count { start[index] = sanitized(start[index]) }
}

/// A space for CR, LF or NUL; any other byte unchanged.
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
private func sanitized(_ byte: UInt8) -> UInt8 {
    byte == 0x0D || byte == 0x0A || byte == 0 ? UInt8(ascii: " ") : byte
}

/// How many decimal digits `value` (not negative) has; 1 for 0.
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
func decimalDigitCount(_ value: UInt64) -> Int {
    var digits = 1
    var rest = value / 10
    while rest > 0 {
        digits += 1
        rest /= 10
    }
    return digits
}

/// Writes `value` in decimal, without leading zeros, to `cursor`.
@inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
func writeDecimal(_ value: UInt64, to cursor: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
    let end = cursor + decimalDigitCount(value)
    var position = end
    var rest = value
    repeat {
        position -= 1
        position.initialize(to: UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10))
        rest /= 10
    } while rest > 0
    return end
}
