/// Scalar JSON text exactly as Foundation's `JSONEncoder` writes it with
/// `outputFormatting = [.sortedKeys, .withoutEscapingSlashes]`.
enum JSONTextWriter {
    /// A string literal (RFC 8259 §7): `"` `\` escaped, `\b \f \n \r \t` short escapes, other U+0000–U+001F as
    /// `\u00xx` (lowercase hex); `/`, DEL and all non-ASCII characters are written raw as UTF-8.
    static func writeString(_ string: String, into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if index > runStart {
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                }
                writeEscape(byte, into: &buffer)
                runStart = index + 1
            }
            if utf8.count > runStart {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    private static func writeEscape(_ byte: UInt8, into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer.append(byte)
        case 0x08: buffer.append(UInt8(ascii: "b"))
        case 0x0C: buffer.append(UInt8(ascii: "f"))
        case 0x0A: buffer.append(UInt8(ascii: "n"))
        case 0x0D: buffer.append(UInt8(ascii: "r"))
        case 0x09: buffer.append(UInt8(ascii: "t"))
        default:
            buffer.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            buffer.append(hexDigit(byte >> 4))
            buffer.append(hexDigit(byte & 0xF))
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// `true` / `false`.
    static func writeBool(_ value: Bool, into buffer: inout [UInt8]) {
        if value {
            buffer.append(contentsOf: [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")])
        } else {
            buffer.append(contentsOf: [
                UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e"),
            ])
        }
    }

    /// `null`.
    static func writeNull(into buffer: inout [UInt8]) {
        buffer.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    /// Decimal digits of `value`, with `-` when negative.
    static func writeInteger<T: FixedWidthInteger>(_ value: T, into buffer: inout [UInt8]) {
        if T.bitWidth > 64 {
            buffer.append(contentsOf: value.description.utf8)
            return
        }
        if value < 0 {
            buffer.append(UInt8(ascii: "-"))
            writeMagnitude(UInt64(value.magnitude), into: &buffer)
        } else {
            writeMagnitude(UInt64(value), into: &buffer)
        }
    }

    private static func writeMagnitude(_ magnitude: UInt64, into buffer: inout [UInt8]) {
        if magnitude < 10 {
            buffer.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        var digits = 1
        var scale: UInt64 = 10
        while digits < 20, magnitude >= scale {
            digits += 1
            if digits < 20 { scale &*= 10 }
        }
        let end = buffer.count + digits
        buffer.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        var rest = magnitude
        buffer.withUnsafeMutableBufferPointer { output in
            var index = end - 1
            while rest > 0 {
                output[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                index -= 1
            }
        }
    }

    /// A finite `Double` as Swift's `description` without a trailing `.0`: `1`, `0.1`, `1e-07`, `1e+16`, `-0`.
    /// Integral values below 2^53 in magnitude take a digit-only path (what `description` prints for them).
    static func writeDouble(_ value: Double, into buffer: inout [UInt8]) {
        if value.magnitude < 9_007_199_254_740_992, value == value.rounded(.towardZero), !value.isZero {
            writeInteger(Int64(value), into: &buffer)
            return
        }
        writeDescription(value.description, into: &buffer)
    }

    /// A finite `Float` as Swift's `description` without a trailing `.0`: `0.1`, `1`, `1e+08`, `3.4028235e+38`.
    static func writeFloat(_ value: Float, into buffer: inout [UInt8]) {
        if value.magnitude < 16_777_216, value == value.rounded(.towardZero), !value.isZero {
            writeInteger(Int32(value), into: &buffer)
            return
        }
        writeDescription(value.description, into: &buffer)
    }

    private static func writeDescription(_ description: String, into buffer: inout [UInt8]) {
        let utf8 = description.utf8
        if utf8.count > 2, utf8.last == UInt8(ascii: "0"), utf8[utf8.index(utf8.endIndex, offsetBy: -2)] == UInt8(ascii: ".") {
            buffer.append(contentsOf: utf8.dropLast(2))
        } else {
            buffer.append(contentsOf: utf8)
        }
    }
}
