/// The package's one JSON string escaper: `JSONValue.writeString(_:into:)`, JSONCoding's state encoder and the
/// server's hand-written envelopes all write strings through it.
///
/// Output: the string between quotes (RFC 8259 §7), escaped as RFC 8785 §3.2.2.2 (JSON Canonicalization Scheme)
/// prescribes, which is also what Foundation's `JSONEncoder` writes with `.withoutEscapingSlashes`: `"` and `\` as
/// `\"` and `\\`; U+0008, U+0009, U+000A, U+000C, U+000D as `\b \t \n \f \r`; the other controls U+0000–U+001F as
/// `\u00xx` (lowercase hex); everything else (`/`, DEL, all non-ASCII) as its raw UTF-8.
///
/// Generic over the output and `@inlinable` (its internal helpers too, which makes them usable from inlined code), so
/// that JSONCoding's hot encode path gets a copy specialized for its own buffer, as fast as a private escaper would be.
public enum JSONStringEscaper {
    /// Appends `string` as a JSON string literal with its quotes (see the type's documentation for the escapes).
    /// - Returns: whether any character was escaped (when not, the bytes between the quotes are `string`'s UTF-8).
    @inlinable
    @inline(__always)  // else the `withUTF8` closure stays out of line: +25 instructions a string (callgrind)
    @discardableResult
    public static func write<Sink: JSONByteSink>(_ string: String, into sink: inout Sink) -> Bool {
        var string = string
        return string.withUTF8 { write($0, into: &sink) }
    }

    /// ``write(_:into:)-(String,_)`` for UTF-8 bytes (which must be well-formed UTF-8: they are copied as they are).
    @inlinable
    @inline(__always)  // into the String entry point, whose small-string copy (≤ 15 bytes, in registers) it then suits
    @discardableResult
    public static func write<Sink: JSONByteSink>(_ utf8: UnsafeBufferPointer<UInt8>, into sink: inout Sink) -> Bool {
        let count = utf8.count
        var index = 0
        // One reservation for the usual string, which needs no escape: copy eight bytes at a time while none needs
        // one, then byte by byte up to the first that does.
        sink.appendBytes(capacity: count &+ 2) { out in
            out[0] = UInt8(ascii: "\"")
            if let source = utf8.baseAddress {
                while index &+ 8 <= count {
                    let word = UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self)
                    if needsEscape(word) { break }
                    UnsafeMutableRawPointer(out + 1 + index).storeBytes(of: word, as: UInt64.self)
                    index &+= 8
                }
            }
            while index < count {
                let byte = utf8[index]
                if needsEscape(byte) { break }
                out[index &+ 1] = byte
                index &+= 1
            }
            guard index == count else { return index &+ 1 }
            out[count &+ 1] = UInt8(ascii: "\"")
            return count &+ 2
        }
        guard index < count else { return false }
        writeEscapedTail(utf8, from: index, into: &sink)
        return true
    }

    /// The rest of a string from `start` (a byte that needs an escape) and the closing quote, in chunks of at most
    /// 1,024 input bytes (each written as at most 6 bytes), so the room asked for stays small for long strings.
    /// Not inlined: escapes are rare, and the fast path above stays small where it is inlined.
    @inlinable
    @inline(never)
    public static func writeEscapedTail<Sink: JSONByteSink>(
        _ utf8: UnsafeBufferPointer<UInt8>, from start: Int, into sink: inout Sink
    ) {
        let count = utf8.count
        var index = start
        repeat {
            let end = Swift.min(count, index &+ 1024)
            let last = end == count
            sink.appendBytes(capacity: (end &- index) &* 6 &+ (last ? 1 : 0)) { out in
                var written = 0
                while index < end {
                    if index &+ 8 <= end, let source = utf8.baseAddress {
                        let word = UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self)
                        if !needsEscape(word) {
                            UnsafeMutableRawPointer(out + written).storeBytes(of: word, as: UInt64.self)
                            index &+= 8
                            written &+= 8
                            continue
                        }
                    }
                    let byte = utf8[index]
                    index &+= 1
                    if needsEscape(byte) {
                        written &+= writeEscape(byte, to: out + written)
                    } else {
                        out[written] = byte
                        written &+= 1
                    }
                }
                if last {
                    out[written] = UInt8(ascii: "\"")
                    written &+= 1
                }
                return written
            }
        } while index < count
    }

    /// Whether `byte` is below 0x20, `"` or `\`.
    @inlinable
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether any of the eight bytes in `word` is below 0x20, `"` or `\` (exact: no false positives or negatives,
    /// whatever the byte order).
    @inlinable
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let quotes = (quote &- ones) & ~quote & highs
        let backslashes = (backslash &- ones) & ~backslash & highs
        return control | quotes | backslashes != 0
    }

    /// Writes the escape of `byte` (one that ``needsEscape(_:)-(UInt8)`` accepts) at `out`; returns its length,
    /// 2 or 6.
    @inlinable
    static func writeEscape(_ byte: UInt8, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = UInt8(ascii: "\\")
        let short: UInt8
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): short = byte
        case 0x08: short = UInt8(ascii: "b")
        case 0x09: short = UInt8(ascii: "t")
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0C: short = UInt8(ascii: "f")
        case 0x0D: short = UInt8(ascii: "r")
        default:
            (out[1], out[2], out[3]) = (UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"))
            out[4] = hexDigit(byte >> 4)
            out[5] = hexDigit(byte & 0xF)
            return 6
        }
        out[1] = short
        return 2
    }

    /// The lowercase hex digit of `nibble` (0...15).
    @inlinable
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ nibble &- 10
    }
}
