@testable import JSON
import StatehouseTestClients
import Testing

/// The parser against `ReferenceJSONParser` (the parser before its fast paths) on many random texts: the same value
/// (member order and number text included) or the same error (offset and reason).
@Suite struct ParserDifferentialTests {
    /// The value's exact shape (order-preserving serialization keeps member order and number text) or the error.
    private func outcome(_ result: Result<JSONValue, JSONParseError>) -> Result<[UInt8], JSONParseError> {
        result.map { $0.serialized() }
    }

    private func parsed(_ bytes: [UInt8], maxDepth: Int) -> Result<JSONValue, JSONParseError> {
        Result { () throws(JSONParseError) in try JSONValue(parsing: bytes, maxDepth: maxDepth) }
    }

    @Test(arguments: 0..<20)
    func randomTextsMatchTheReference(batch: Int) {
        for offset in 0..<500 {
            let seed = UInt64(batch * 500 + offset)
            var random = RandomJSONText(seed: seed)
            let bytes = random.document()
            let maxDepth = random.chance(10) ? random.int(0..<6) : 512
            let expected = ReferenceJSONParser.parse(bytes, maxDepth: maxDepth)
            let actual = parsed(bytes, maxDepth: maxDepth)
            #expect(outcome(actual) == outcome(expected), "seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
            if case .success(let value) = actual, case .success(let reference) = expected {
                #expect(value == reference, "seed \(seed)")
            }
        }
    }

    @Test func stringEntryMatchesBytes() throws {
        var random = RandomJSONText(seed: 99)
        for _ in 0..<300 {
            let text = String(decoding: random.document(), as: UTF8.self)
            let expected = outcome(ReferenceJSONParser.parse(Array(text.utf8)))
            #expect(outcome(Result { () throws(JSONParseError) in try JSONValue(parsing: text) }) == expected)
        }
    }

    @Test func deepAndWideDocumentsOutgrowTheInPlaceStacks() throws {
        let deep = String(repeating: #"{"k":["#, count: 100) + "1" + String(repeating: "]}", count: 100)
        let wide = "[" + (0..<200).map { #"{"k\#($0)":[\#($0),"s\#($0)"]}"# }.joined(separator: ",") + "]"
        let keys = "{" + (0..<100).map { #""k\#($0)":"\#($0)""# }.joined(separator: ",") + "}"
        for text in [deep, wide, keys, deep + " x", String(wide.dropLast())] {
            let bytes = Array(text.utf8)
            #expect(outcome(parsed(bytes, maxDepth: 512)) == outcome(ReferenceJSONParser.parse(bytes)))
        }
        let tooDeep = JSONParseError(offset: 599, reason: .tooDeep)  // the 200th container: level 99's `[`
        #expect(outcome(parsed(Array(deep.utf8), maxDepth: 199)) == .failure(tooDeep))
        #expect(outcome(ReferenceJSONParser.parse(Array(deep.utf8), maxDepth: 199)) == .failure(tooDeep))
    }

    @Test func plainASCIIScanMatchesTheBytewiseDefinition() {
        var generator = SeededGenerator(seed: 5)
        let interesting: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xA0, 0xFF]
        for _ in 0..<2_000 {
            let count = Int.random(in: 0..<40, using: &generator)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &generator)
                    ? UInt8(ascii: "a") + UInt8.random(in: 0..<26, using: &generator)
                    : interesting.randomElement(using: &generator)!
            }
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0...count {
                    let expected = buffer[start...].firstIndex(where: JSONStringScanner.isStop) ?? count
                    #expect(JSONStringScanner.plainASCIIEnd(buffer, from: start) == expected, "\(bytes) from \(start)")
                }
            }
        }
    }

    @Test func asciiStringsMatchDecoding() {
        var generator = SeededGenerator(seed: 11)
        for length in 0...40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0..<0x80, using: &generator) }
            let string = bytes.withUnsafeBufferPointer { JSONStringScanner.asciiString($0) }
            #expect(string == String(decoding: bytes, as: UTF8.self))
            #expect(Array(string.utf8) == bytes)
        }
    }
}
