/// Scalar JSON text exactly as Foundation's `JSONEncoder` writes it with
/// `outputFormatting = [.sortedKeys, .withoutEscapingSlashes]`.
enum JSONTextWriter {
    /// A string literal (RFC 8259 §7): `"` `\` escaped, `\b \f \n \r \t` short escapes, other U+0000–U+001F as
    /// `\u00xx` (lowercase hex); `/`, DEL and all non-ASCII characters are written raw as UTF-8.
    /// - Returns: whether any character was escaped (when not, the bytes between the quotes are `string`'s UTF-8).
    @discardableResult
    static func writeString(_ string: String, into buffer: inout ByteBuffer) -> Bool {
        var string = string
        return string.withUTF8 { writeString($0, into: &buffer) }
    }

    /// `writeString(_:into:)` for UTF-8 bytes.
    @discardableResult
    static func writeString(_ utf8: UnsafeBufferPointer<UInt8>, into buffer: inout ByteBuffer) -> Bool {
        let count = utf8.count
        let out = buffer.reserve(count &+ 2)
        out[0] = UInt8(ascii: "\"")
        var index = 0
        // Copy eight bytes at a time while none needs an escape, then byte by byte up to the first that does.
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
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
            out[index &+ 1] = byte
            index &+= 1
        }
        if index == count {
            out[count &+ 1] = UInt8(ascii: "\"")
            buffer.count &+= count &+ 2
            return false
        }
        buffer.count &+= index &+ 1
        writeEscapedTail(utf8, from: index, into: &buffer)
        return true
    }

    /// Whether any of the eight bytes in `word` is below 0x20, `"` or `\` (exact: no false positives or negatives).
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    private static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let quotes = (quote &- ones) & ~quote & highs
        let backslashes = (backslash &- ones) & ~backslash & highs
        return control | quotes | backslashes != 0
    }

    /// The rest of a string from `start` (a byte that needs an escape), and the closing quote.
    @inline(never)
    private static func writeEscapedTail(
        _ utf8: UnsafeBufferPointer<UInt8>, from start: Int, into buffer: inout ByteBuffer
    ) {
        var runStart = start
        for index in start..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if index > runStart { buffer.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            writeEscape(byte, into: &buffer)
            runStart = index + 1
        }
        if utf8.count > runStart { buffer.append(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count])) }
        buffer.append(UInt8(ascii: "\""))
    }

    private static func writeEscape(_ byte: UInt8, into buffer: inout ByteBuffer) {
        buffer.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer.append(byte)
        case 0x08: buffer.append(UInt8(ascii: "b"))
        case 0x0C: buffer.append(UInt8(ascii: "f"))
        case 0x0A: buffer.append(UInt8(ascii: "n"))
        case 0x0D: buffer.append(UInt8(ascii: "r"))
        case 0x09: buffer.append(UInt8(ascii: "t"))
        default:
            buffer.append(UInt8(ascii: "u"))
            buffer.append(UInt8(ascii: "0"))
            buffer.append(UInt8(ascii: "0"))
            buffer.append(hexDigit(byte >> 4))
            buffer.append(hexDigit(byte & 0xF))
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// `true` / `false`.
    static func writeBool(_ value: Bool, into buffer: inout ByteBuffer) {
        let out = buffer.reserve(5)
        if value {
            (out[0], out[1], out[2], out[3]) = (0x74, 0x72, 0x75, 0x65)  // true
            buffer.count &+= 4
        } else {
            (out[0], out[1], out[2], out[3], out[4]) = (0x66, 0x61, 0x6C, 0x73, 0x65)  // false
            buffer.count &+= 5
        }
    }

    /// `null`.
    static func writeNull(into buffer: inout ByteBuffer) {
        let out = buffer.reserve(4)
        (out[0], out[1], out[2], out[3]) = (0x6E, 0x75, 0x6C, 0x6C)  // null
        buffer.count &+= 4
    }

    /// Decimal digits of `value`, with `-` when negative.
    static func writeInteger(_ value: Int64, into buffer: inout ByteBuffer) {
        writeDigits(value.magnitude, negative: value < 0, into: &buffer)
    }

    /// Decimal digits of `value`.
    static func writeInteger(_ value: UInt64, into buffer: inout ByteBuffer) {
        writeDigits(value, negative: false, into: &buffer)
    }

    /// Decimal digits of a 128-bit `value` (its `description`).
    static func writeInteger<T: FixedWidthInteger>(wide value: T, into buffer: inout ByteBuffer) {
        buffer.append(utf8: value.description)
    }

    private static func writeDigits(_ magnitude: UInt64, negative: Bool, into buffer: inout ByteBuffer) {
        var length = negative ? 2 : 1
        var rest = magnitude
        while rest >= 10 {
            rest /= 10
            length &+= 1
        }
        let out = buffer.reserve(length)
        if negative { out[0] = UInt8(ascii: "-") }
        rest = magnitude
        var index = length &- 1
        repeat {
            out[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            index &-= 1
        } while rest > 0
        buffer.count &+= length
    }

    /// A finite `Double` as Swift's `description` without a trailing `.0`: `1`, `0.1`, `1e-07`, `1e+16`, `-0`.
    /// Integral values below 2^53 in magnitude take a digit-only path (what `description` prints for them).
    static func writeDouble(_ value: Double, into buffer: inout ByteBuffer) {
        if value.magnitude < 9_007_199_254_740_992, value == value.rounded(.towardZero), !value.isZero {
            writeInteger(Int64(value), into: &buffer)
            return
        }
        writeDescription(value.description, into: &buffer)
    }

    /// A finite `Float` as Swift's `description` without a trailing `.0`: `0.1`, `1`, `1e+08`, `3.4028235e+38`.
    static func writeFloat(_ value: Float, into buffer: inout ByteBuffer) {
        if value.magnitude < 16_777_216, value == value.rounded(.towardZero), !value.isZero {
            writeInteger(Int64(value), into: &buffer)
            return
        }
        writeDescription(value.description, into: &buffer)
    }

    private static func writeDescription(_ description: String, into buffer: inout ByteBuffer) {
        var description = description
        description.withUTF8 { utf8 in
            if utf8.count > 2, utf8[utf8.count - 1] == UInt8(ascii: "0"), utf8[utf8.count - 2] == UInt8(ascii: ".") {
                buffer.append(UnsafeBufferPointer(rebasing: utf8.dropLast(2)))
            } else {
                buffer.append(utf8)
            }
        }
    }
}
