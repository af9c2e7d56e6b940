/// An incremental UTF-8 checker for text split across frames and reads (RFC 6455 §5.6, §8.1; RFC 3629 §4).
///
/// It follows the well-formed byte sequence table of Unicode §3.9 (Table 3-7), so overlong forms,
/// UTF-16 surrogates (U+D800–U+DFFF) and code points above U+10FFFF are rejected on the first byte that
/// makes them impossible. ASCII runs are checked 8 bytes at a time.
///
/// Once `validate(_:)` has returned `false` the validator stays failed until `reset()`.
///
/// ## Thread safety
/// A value type with no shared state; use one instance per stream from one thread at a time.
public struct UTF8Validator: Sendable {
    /// Continuation bytes still expected by the open sequence (0–3).
    private var pending: UInt8 = 0
    /// Allowed range for the next continuation byte (narrower than 0x80–0xBF right after E0, ED, F0, F4).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF
    private var failed = false

    /// Creates a validator at a character boundary.
    public init() {}

    /// Feeds the next bytes of the stream. Returns `false` on the first byte that can never start or continue
    /// valid UTF-8 (and on every later call); `true` if all bytes so far are a valid prefix of UTF-8.
    public mutating func validate(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !failed else { return false }
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            if pending == 0 {
                // Skip ASCII 8 bytes at a time.
                while index + 8 <= count,
                    base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                }
                guard index < count else { break }
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                index += 1
                if byte < 0x80 { continue }
                guard start(byte) else {
                    failed = true
                    return false
                }
            } else {
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                index += 1
                guard byte >= lower, byte <= upper else {
                    failed = true
                    return false
                }
                pending -= 1
                lower = 0x80
                upper = 0xBF
            }
        }
        return true
    }

    /// True when no multi-byte sequence is left open (and no invalid byte was seen): the bytes so far are
    /// complete, valid UTF-8.
    public var isAtBoundary: Bool { pending == 0 && !failed }

    /// Forgets all input, returning to a boundary with no failure.
    public mutating func reset() {
        self = UTF8Validator()
    }

    /// Opens a multi-byte sequence for lead byte `byte` (≥ 0x80); false if it cannot start one.
    private mutating func start(_ byte: UInt8) -> Bool {
        switch byte {
        case 0xC2...0xDF: pending = 1
        case 0xE0: pending = 2; lower = 0xA0  // no overlong 3-byte forms
        case 0xE1...0xEC, 0xEE...0xEF: pending = 2
        case 0xED: pending = 2; upper = 0x9F  // no surrogates
        case 0xF0: pending = 3; lower = 0x90  // no overlong 4-byte forms
        case 0xF1...0xF3: pending = 3
        case 0xF4: pending = 3; upper = 0x8F  // nothing above U+10FFFF
        default: return false  // 0x80–0xC1 (continuation or overlong lead), 0xF5–0xFF
        }
        return true
    }
}
