/// Scans RFC 8259 §6 number text: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
enum JSONNumberScanner {
    /// Returns the offset just past the number that starts at `start`.
    /// - Throws: `JSONParseError` `.invalidNumber` (or `.unexpectedEnd`) at the offending byte.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws(JSONParseError) -> Int {
        var index = start
        let count = bytes.count
        if index < count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < count else { throw JSONParseError(offset: index, reason: .unexpectedEnd) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < count, isDigit(bytes[index]) { throw JSONParseError(offset: index, reason: .invalidNumber) }
        } else {
            index = try digits(bytes, from: index)
        }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index = try digits(bytes, from: index + 1)
        }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            index = try digits(bytes, from: index)
        }
        return index
    }

    /// One or more digits from `start`; returns the offset after the last.
    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws(JSONParseError) -> Int {
        var index = start
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        guard index > start else {
            throw JSONParseError(offset: start, reason: start < bytes.count ? .invalidNumber : .unexpectedEnd)
        }
        return index
    }

    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}
