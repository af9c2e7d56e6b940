import JSON

/// Number conversions with the semantics of swift-foundation's `JSONDecoder` (checked against it in the tests).
extension JSONNumber {
    /// The number as the integer type `T`, or nil when it is not representable.
    ///
    /// Rules (swift-foundation's, including its quirks):
    /// - plain integer text (`-?[0-9]+`) converts exactly when in range: `255` → `UInt8` 255, `256` → nil;
    /// - other text (`1.0`, `1e2`, `10e-1`) is read as a `Double` first, which must be integral and in range
    ///   (`1.5` → nil, `1e20` → nil for `Int`); below 2^53 that `Double` is the result;
    /// - at or above 2^53 the exact decimal value is used instead, truncated toward zero
    ///   (`9007199254740993.0` → 9007199254740993, `9007199254740993.5` → 9007199254740993), its significant
    ///   digits must fit in `UInt64`, and a negative result must be one more than `T.min`
    ///   (`-9223372036854775808.0` → nil for `Int64`). Texts with more than 38 significant digits may differ
    ///   from Foundation, which rounds them to 38 digits first.
    func integer<T: FixedWidthInteger>(as type: T.Type) -> T? {
        // Plain integers of up to 18 digits (the usual case) are exact in `Int64`: in range or not, nothing else
        // could change the answer.
        if let short = shortInteger { return T(exactly: short) }
        var text = self.text
        return text.withUTF8 { bytes in
            if let plain = Self.plainInteger(bytes, as: T.self) { return plain }
            guard let double = Double(self.text) else { return nil }
            guard let exact = T(exactly: double) else { return nil }
            if double.magnitude < 9_007_199_254_740_992 { return exact }
            return Self.decimalInteger(bytes, as: T.self)
        }
    }

    /// The number as `Float` or `Double`, correctly rounded; nil when it overflows to infinity or underflows to
    /// zero from a text whose significand has a non-zero digit (`1e39` as `Float`, `1e-400`), as
    /// swift-foundation's `JSONDecoder` rejects them. A zero written with an exponent (`0e5`) is zero.
    func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(as type: T.Type) -> T? {
        if let short = shortInteger, short.magnitude < 1_000_000_000_000_000 {
            return T(short)  // below 10^15: exact in Double; correctly rounded in Float, like strtof
        }
        var text = self.text
        return text.withUTF8 { bytes in
            guard let value = T(self.text), value.isFinite else { return nil }
            if value == 0, !Self.isZeroText(bytes) { return nil }
            return value
        }
    }

    /// The value of a `-?[0-9]{1,18}` text (always within `Int64`), else nil.
    var shortInteger: Int64? {
        let parsed = text.utf8.withContiguousStorageIfAvailable { bytes -> Int64? in
            var index = 0
            let negative = bytes.first == UInt8(ascii: "-")
            if negative { index = 1 }
            let digits = bytes.count &- index
            guard digits > 0, digits <= 18 else { return nil }
            var magnitude: Int64 = 0
            while index < bytes.count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                magnitude = magnitude &* 10 &+ Int64(digit)
                index &+= 1
            }
            return negative ? -magnitude : magnitude
        }
        return parsed ?? nil
    }

    /// `-?[0-9]+` parsed exactly into `T`; nil for other text or when out of range.
    static func plainInteger<T: FixedWidthInteger>(_ bytes: UnsafeBufferPointer<UInt8>, as type: T.Type) -> T? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        guard index < bytes.count else { return nil }
        var value: T = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative
                ? times10.subtractingReportingOverflow(T(digit)) : times10.addingReportingOverflow(T(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// The exact decimal value truncated toward zero, when its significant digits fit in `UInt64` (Foundation's
    /// `Decimal` route for integers of 2^53 and above).
    private static func decimalInteger<T: FixedWidthInteger>(
        _ bytes: UnsafeBufferPointer<UInt8>, as type: T.Type
    ) -> T? {
        let parts = DecimalParts(bytes)
        guard var magnitude = parts.significand else { return nil }
        if parts.exponent < 0 {
            for _ in 0..<min(-parts.exponent, 20) { magnitude /= 10 }
        } else {
            for _ in 0..<min(parts.exponent, 20) {
                let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                magnitude = product
            }
            if parts.exponent > 20, magnitude != 0 { return nil }
        }
        guard let value = T(exactly: magnitude) else { return nil }
        if parts.negative {
            guard T.isSigned else { return nil }
            return 0 - value
        }
        return value
    }

    /// Whether the significand (the text before any `e`/`E`) has no digit 1–9: the number is exactly zero
    /// (`0e5`, `0.0e-400`, `-0e999`), not an underflow. Foundation differs here, and not by one rule: it refuses
    /// `0e1`…`0e9` and `0.00e22` but accepts `0e10`, `0e999` and `0.0e23` (checked with swift-foundation 6.3.1;
    /// docs/conformance.md, the actions target).
    private static func isZeroText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return true }
            if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") { return false }
        }
        return true
    }
}

/// Valid JSON number text split into sign, significant digits (as `UInt64`, trailing zeros removed) and a
/// power-of-ten exponent: value = ±significand × 10^exponent.
private struct DecimalParts {
    var negative = false
    /// nil when the significant digits do not fit in `UInt64`.
    var significand: UInt64? = 0
    var exponent = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        var digits: [UInt8] = []
        var index = 0
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            index = 1
        }
        var fractionDigits = 0
        var inFraction = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte | 0x20 == UInt8(ascii: "e") {
                exponent = Self.exponent(bytes, from: index + 1)
                break
            } else {
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte) }
                if inFraction { fractionDigits += 1 }
            }
            index += 1
        }
        exponent -= fractionDigits
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        var value: UInt64 = 0
        for digit in digits {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            if overflow1 || overflow2 {
                significand = nil
                return
            }
            value = sum
        }
        significand = value
    }

    /// `[+-]?[0-9]+` from `start`, clamped to ±10^6 (far beyond any 64-bit integer).
    private static func exponent(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        var sign = 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            if bytes[index] == UInt8(ascii: "-") { sign = -1 }
            index += 1
        }
        var value = 0
        while index < bytes.count {
            value = min(value * 10 + Int(bytes[index] &- UInt8(ascii: "0")), 1_000_000)
            index += 1
        }
        return sign * value
    }
}
