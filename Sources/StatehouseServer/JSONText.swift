import JSON

/// Small helpers for writing JSON text by hand (envelopes whose key order the protocol fixes).
enum JSONText {
    /// `value` as a JSON string literal with quotes (RFC 8259 §7), escaped by the package's one escaper
    /// (``JSON/JSONValue/writeString(_:into:)``); used for names in error messages and small envelopes.
    static func quoted(_ value: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count + 2)
        JSONValue.writeString(value, into: &out)
        return String(decoding: out, as: UTF8.self)
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
}
