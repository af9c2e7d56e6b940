import JSON

/// Scalar JSON text exactly as Foundation's `JSONEncoder` writes it with
/// `outputFormatting = [.sortedKeys, .withoutEscapingSlashes]`.
enum JSONTextWriter {
    /// A string literal (RFC 8259 §7) by the package's one escaper, ``JSON/JSONStringEscaper``: `"` `\` escaped,
    /// `\b \f \n \r \t` short escapes, other U+0000–U+001F as `\u00xx` (lowercase hex); `/`, DEL and all
    /// non-ASCII characters are written raw as UTF-8.
    /// - Returns: whether any character was escaped (when not, the bytes between the quotes are `string`'s UTF-8).
    @inline(__always)  // a forwarder: the escaper is specialized for ByteBuffer where this is called
    @discardableResult
    static func writeString(_ string: String, into buffer: inout ByteBuffer) -> Bool {
        JSONStringEscaper.write(string, into: &buffer)
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
