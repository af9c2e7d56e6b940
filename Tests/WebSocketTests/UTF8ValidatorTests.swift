import Testing
import WebSocket

extension UTF8Validator {
    mutating func validate(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { validate($0) } }
}

/// The incremental UTF-8 validator (RFC 3629, Unicode Table 3-7).
@Suite struct UTF8ValidatorTests {
    static let valid: [[UInt8]] = [
        [], utf8("plain ASCII that is longer than eight bytes"), [0x7F], [0xC2, 0x80], [0xDF, 0xBF],
        [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF],
        [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], utf8("κόσμε € 😀 mixed with ascii text"),
    ]

    static let invalid: [[UInt8]] = [
        [0xC0, 0x80], [0xC1, 0xBF],  // overlong 2-byte
        [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],  // overlong 3-byte
        [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],  // overlong 4-byte
        [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],  // surrogates U+D800, U+DFFF
        [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF],  // above U+10FFFF
        [0x80], [0xBF], [0xC2, 0x41], [0xE2, 0x82, 0x41],  // stray or missing continuation
    ]

    @Test(arguments: valid)
    func acceptsValidSequences(bytes: [UInt8]) {
        var validator = UTF8Validator()
        let isValid = validator.validate(bytes)
        #expect(isValid)
        #expect(validator.isAtBoundary)
    }

    @Test(arguments: invalid)
    func rejectsInvalidSequences(bytes: [UInt8]) {
        var validator = UTF8Validator()
        let isValid = validator.validate(bytes)
        #expect(!isValid)
        #expect(!validator.isAtBoundary)
    }

    @Test(arguments: [[UInt8(0xC2)], [0xE2, 0x82], [0xF0, 0x9F, 0x98]])
    func truncatedSequenceIsValidPrefixButNotBoundary(bytes: [UInt8]) {
        var validator = UTF8Validator()
        let isValid = validator.validate(bytes)
        #expect(isValid)
        #expect(!validator.isAtBoundary)
    }

    @Test func everySplitOfValidTextAcrossCalls() {
        let text = utf8("a€b😀cé")
        for cut in 0...text.count {
            var validator = UTF8Validator()
            let headValid = validator.validate(Array(text[..<cut]))
            let tailValid = validator.validate(Array(text[cut...]))
            #expect(headValid && tailValid, "cut \(cut)")
            #expect(validator.isAtBoundary, "cut \(cut)")
        }
    }

    @Test func invalidContinuationInNextCall() {
        var validator = UTF8Validator()
        let leadValid = validator.validate([0xF4])
        let nextValid = validator.validate([0x90])
        #expect(leadValid)
        #expect(!nextValid)  // F4 90 would be above U+10FFFF
    }

    @Test func invalidByteFoundAtEveryPositionOfALongASCIIRun() {
        for position in 0..<40 {
            var bytes = [UInt8](repeating: 0x61, count: 40)
            bytes[position] = 0xFF
            var validator = UTF8Validator()
            let isValid = validator.validate(bytes)
            #expect(!isValid, "position \(position)")
        }
    }

    @Test func failureIsStickyUntilReset() {
        var validator = UTF8Validator()
        let invalidByte = validator.validate([0xFF])
        let afterFailure = validator.validate(utf8("fine"))
        validator.reset()
        let afterReset = validator.validate(utf8("fine"))
        #expect(!invalidByte)
        #expect(!afterFailure)
        #expect(afterReset)
        #expect(validator.isAtBoundary)
    }
}
