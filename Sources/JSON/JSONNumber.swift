/// A JSON number (RFC 8259 §6) kept as its exact text, so any valid number round-trips byte for byte
/// (`1.0` stays `1.0`, `1e400` and 30-digit integers are not squeezed through `Double`).
///
/// Equality and hashing use the exact decimal value, not the text: `1.0 == 1`, `1e2 == 100`, `-0 == 0`,
/// `0.10 == 0.1`. No rounding happens, so `0.1` and `0.1000000000000000055511151231257827` differ even though they
/// are the same `Double`. Exponents beyond ±10^15 are clamped when compared (such numbers are not otherwise comparable).
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's JSON text, always valid RFC 8259 §6 grammar: `-? int frac? exp?`, no leading zeros.
    public let text: String

    /// Wraps `text` when it is a valid JSON number (RFC 8259 §6), else nil.
    ///
    /// Leading `+`, leading zeros (`01`), a bare `.5` or `5.`, `NaN`, `Infinity` and whitespace are rejected.
    public init?(text: String) {
        var text = text
        let valid = text.withUTF8 { bytes in
            (try? JSONNumberScanner.scan(bytes, from: 0)) == bytes.count && !bytes.isEmpty
        }
        guard valid else { return nil }
        self.text = text
    }

    /// Wraps text already checked against the grammar (the parser's path).
    init(validatedText: String) {
        self.text = validatedText
    }

    /// The decimal text of an integer, e.g. `-42`.
    public init(_ int: Int) {
        self.text = String(int)
    }

    /// The shortest decimal text that reads back as the same `Double`, e.g. `0.1`, `1.0`, `1e-05`, `1e+16`.
    ///
    /// - Precondition: `double.isFinite` (JSON has no NaN or infinity); traps otherwise.
    public init(_ double: Double) {
        precondition(double.isFinite, "JSON numbers must be finite")
        self.text = double.description
    }

    /// The text (same as `text`).
    public var description: String { text }

    /// The nearest `Double` (±infinity when out of range, e.g. `1e400`).
    public var doubleValue: Double {
        Double(text) ?? .nan
    }

    /// The exact integer value when the number is integral and fits in `Int` (`1.0`, `1e2` and `-0` qualify), else nil.
    public var intValue: Int? {
        if let int = Int(text) { return int }
        return JSONNumberCanonical(text).exactInt
    }

    /// Numeric equality on exact decimal values (see the type's documentation).
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if lhs.text == rhs.text { return true }
        if lhs.isPlainInteger, rhs.isPlainInteger { return false }
        return JSONNumberCanonical(lhs.text) == JSONNumberCanonical(rhs.text)
    }

    /// Hashes the exact decimal value, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(JSONNumberCanonical(text))
    }

    /// True for texts like `12` or `-7` (not `-0`): distinct such texts are always distinct values.
    private var isPlainInteger: Bool {
        var iterator = text.utf8.makeIterator()
        guard var byte = iterator.next() else { return false }
        if byte == UInt8(ascii: "-") {
            guard let next = iterator.next(), next != UInt8(ascii: "0") else { return false }
            byte = next
        }
        repeat {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return false }
            guard let next = iterator.next() else { return true }
            byte = next
        } while true
    }
}
