/// The exact decimal value of valid JSON number text: value = ±0.d₁d₂…dₙ × 10^exponent with d₁ ≠ 0 and dₙ ≠ 0.
/// Zero has no digits, exponent 0 and is never negative. Exponents are clamped to ±10^15.
struct JSONNumberCanonical: Hashable {
    var negative = false
    /// Significant digits as ASCII bytes, no leading or trailing zeros.
    var digits: [UInt8] = []
    var exponent = 0

    private static let exponentLimit = 1_000_000_000_000_000

    init(_ text: String) {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes = bytes.dropFirst()
        }
        var pointPosition = 0
        var seenPoint = false
        var exponentValue = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                exponentValue = Self.parseExponent(bytes[(index + 1)...])
                break
            } else {
                if digits.isEmpty && byte == UInt8(ascii: "0") {
                    if seenPoint { pointPosition -= 1 }  // a leading zero after the point shifts the value down
                } else {
                    digits.append(byte)
                    if !seenPoint { pointPosition += 1 }
                }
            }
            index += 1
        }
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        if digits.isEmpty {
            negative = false
            exponent = 0
        } else {
            let sum = pointPosition + exponentValue
            exponent = max(-Self.exponentLimit, min(Self.exponentLimit, sum))
        }
    }

    /// `[+-]digits` → Int, clamped to ±10^15.
    private static func parseExponent(_ bytes: ArraySlice<UInt8>) -> Int {
        var sign = 1
        var rest = bytes
        if let first = rest.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            sign = first == UInt8(ascii: "-") ? -1 : 1
            rest = rest.dropFirst()
        }
        var value = 0
        for byte in rest {
            value = min(value * 10 + Int(byte - UInt8(ascii: "0")), exponentLimit)
        }
        return sign * value
    }

    /// The value as `Int` when it is integral and in range, else nil.
    var exactInt: Int? {
        if digits.isEmpty { return 0 }
        guard exponent >= digits.count, exponent <= 19 else { return nil }
        var magnitude: UInt64 = 0
        for position in 0..<exponent {
            let digit = position < digits.count ? UInt64(digits[position] - UInt8(ascii: "0")) : 0
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            magnitude = sum
        }
        if negative {
            if magnitude == UInt64(Int.max) + 1 { return Int.min }
            return magnitude <= UInt64(Int.max) ? -Int(magnitude) : nil
        }
        return magnitude <= UInt64(Int.max) ? Int(magnitude) : nil
    }
}
