/// Small helpers for writing JSON text by hand (envelopes whose key order the protocol fixes).
enum JSONText {
    /// `value` as a JSON string literal with quotes, escaped per RFC 8259 §7.
    static func quoted(_ value: String) -> String {
        var out = "\""
        out.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
        return out
    }
}

extension Array where Element == UInt8 {
    /// Appends the bytes of a literal (the envelopes' fixed parts).
    mutating func appendLiteral(_ text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `value` in decimal digits.
    mutating func appendDecimal(_ value: UInt64) {
        guard value >= 10 else { return append(UInt8(ascii: "0") + UInt8(value)) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for UInt64.max's 20 digits
        Swift.withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = value
            var index = buffer.count
            while rest > 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            append(contentsOf: buffer[index...])
        }
    }

    /// Appends `string` as a JSON string literal with quotes (RFC 8259 §7), escaped as ``JSONText/quoted(_:)``
    /// does; a string with nothing to escape (the usual store name or ref) is copied as is.
    mutating func appendJSONString(_ string: String) {
        let plain = string.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        guard plain else { return append(contentsOf: JSONText.quoted(string).utf8) }
        append(UInt8(ascii: "\""))
        append(contentsOf: string.utf8)
        append(UInt8(ascii: "\""))
    }
}
