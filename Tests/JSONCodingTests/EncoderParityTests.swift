import Foundation
import JSONCoding
import Testing

/// `JSONBytesEncoder` output must equal Foundation's `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]`.
@Suite struct EncoderParityTests {
    private func expectSameBytes<T: Encodable>(
        _ value: T, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let ours = try JSONBytesEncoder().encode(value)
        let theirs = try Oracle.foundationEncode(value)
        #expect(Oracle.text(ours) == Oracle.text(theirs), sourceLocation: sourceLocation)
    }

    static let profile = Profile(
        name: "Zoë \"Z\" / \\ \n\t\u{1}\u{7F}", age: 42, score: 0.1, ratio: 0.1, nickname: nil,
        tags: ["a", "", "😀", "e\u{301}"], grid: [[], [1], [2, 3]], home: Point(x: -1, y: 2),
        counts: ["b": 2, "a": 1, "B": 3, "_": 4, "10": 5, "9": 6, "é": 7, "aa": 8, "": 9],
        byId: [10: "ten", 9: "nine", -1: "minus"], flags: [true, nil, false])

    @Test func structsWithEveryContainerShape() throws {
        try expectSameBytes(Self.profile)
        try expectSameBytes([Self.profile, Self.profile])
        try expectSameBytes(Point(x: 1, y: 2))
        try expectSameBytes(Empty())
        #expect(throws: EncodingError.self) { try JSONBytesEncoder().encode(Silent()) }
        #expect(throws: EncodingError.self) { try Oracle.foundationEncode(Silent()) }
        try expectSameBytes([Silent()])
        try expectSameBytes(Silent?.some(Silent()))
        try expectSameBytes(["k": Silent()])
    }

    @Test func enumsWithAssociatedValuesAndRawValues() throws {
        let actions: [Action] = [
            .increment, .add(amount: 5), .rename("x", reason: nil), .rename("y", reason: "why"),
            .move(Point(x: 3, y: 4)), .batch([.increment, .batch([])]),
        ]
        for action in actions { try expectSameBytes(action) }
        try expectSameBytes(actions)
        try expectSameBytes([Color.red, .darkBlue])
        try expectSameBytes([Priority.low: Color.green])
        try expectSameBytes(["k": Priority.high])
    }

    @Test func topLevelScalars() throws {
        try expectSameBytes(42)
        try expectSameBytes(-0.0)
        try expectSameBytes("a/b")
        try expectSameBytes(true)
        try expectSameBytes(Int?.none)
        try expectSameBytes(Int?.some(3))
        try expectSameBytes(Color.green)
    }

    @Test func emptyAndNestedCollections() throws {
        try expectSameBytes([Int]())
        try expectSameBytes([String: Int]())
        try expectSameBytes([[[Int]]]([[[]], [[1, 2], []]]))
        try expectSameBytes(["i": [1, -2]] as [String: [Int]])
        try expectSameBytes([["a", "/"], []] as [[String]])
        try expectSameBytes([[0.1, -0.0, 1e21], []] as [[Double]])
        try expectSameBytes([[true, false]] as [[Bool]])
        try expectSameBytes([[String: [Int?]]]([["a": [nil, 1]], [:]]))
        try expectSameBytes(["outer": ["inner": ["x": 1]]])
        try expectSameBytes([Int?]([nil, nil]))
    }

    @Test func integerWidths() throws {
        try expectSameBytes(
            Wide(
                i8: .min, i16: .min, i32: .min, i64: .min, u: .max, u8: .max, u16: .max, u32: .max, u64: .max,
                i128: .min, u128: .max))
        try expectSameBytes(Wide(i8: 0, i16: -1, i32: 7, i64: .max, u: 0, u8: 0, u16: 1, u32: 9, u64: 10, i128: 0, u128: 1))
        try expectSameBytes([0, 9, 10, 99, 100, 999_999_999_999_999_999, Int.max, Int.min, -10])
    }

    @Test func floatingPointText() throws {
        let doubles: [Double] = [
            1.0, 0.1, 1e-7, 1e21, 1e20, -0.0, 0, 123456789.0, 1e16, 1e15, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
            0.000001, 0.0001, 100, 1234567890123456789.0, 2.5e-5, 9007199254740991, 9007199254740992,
            9007199254740994, -9007199254740992, 4503599627370495.5, 1.5, -2.75, 1 / 3.0, 0.30000000000000004,
            .leastNormalMagnitude, .ulpOfOne, 1e-5, 1e-4, 12345.678,
        ]
        try expectSameBytes(doubles)
        let floats: [Float] = [
            0.1, 1, 1e-7, .greatestFiniteMagnitude, 1e21, 16_777_216, 16_777_215, 16_777_218, 0.3, -0.0, 1e8, Float(99_999_999 as Int),
            .leastNonzeroMagnitude, 3.14159,
        ]
        try expectSameBytes(floats)
    }

    @Test func stringEscapes() throws {
        var all = ""
        for scalar in 0..<0x80 { all.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        try expectSameBytes(all)
        try expectSameBytes(["\u{2028}\u{2029}", "\u{FEFF}", "é", "e\u{301}", "𝄞", "\u{10FFFF}", "a\"b", "\\/"])
        try expectSameBytes([all: all])
    }

    @Test func keySortOrderMatchesFoundation() throws {
        let keys = ["a", "B", "_", "10", "9", "é", "aa", "A", "ab", "Z", "~", "a1", "😀", "\u{FF5E}", "", "a\u{0}", "ä"]
        try expectSameBytes(Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) }))
    }

    @Test func manualContainersSuperEncodersAndDuplicates() throws {
        try expectSameBytes(Manual(id: 7, parts: ["p", "q"], inner: Point(x: 1, y: 1), base: Point(x: 0, y: 9)))
        try expectSameBytes(Dog(name: "Rex", legs: 4))
        try expectSameBytes([Dog(name: "a", legs: 3), Dog(name: "b", legs: 2)])
        try expectSameBytes(Interleaved())
        try expectSameBytes(["list": [Interleaved(), Interleaved()]])
    }

    @Test func foundationTypesUseDefaultStrategies() throws {
        let value = FoundationTypes(
            date: Date(timeIntervalSinceReferenceDate: 12.5), data: Data([0, 1, 2, 250, 255]),
            url: URL(string: "https://example.org/a/b?c=d#e")!, decimal: Decimal(string: "12.345")!)
        try expectSameBytes(value)
        try expectSameBytes([Data(), Data([1])])
    }

    @Test func nonFiniteFloatsThrowInvalidValueWithPath() throws {
        for value in [Double.nan, .infinity, -.infinity] {
            #expect(throws: EncodingError.self) { try JSONBytesEncoder().encode(value) }
            #expect(throws: EncodingError.self) { try Oracle.foundationEncode(value) }
        }
        do {
            _ = try JSONBytesEncoder().encode(["a": [1, Float.nan]])
            Issue.record("expected an error")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["a", "Index 1"])
        }
        do {
            _ = try JSONBytesEncoder().encode(["a": [[1.0], [2.0, .infinity]]])
            Issue.record("expected an error")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["a", "Index 1", "Index 1"])
        }
    }
}
