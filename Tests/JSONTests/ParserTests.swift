import JSON
import Testing

@Suite struct ParserTests {
    @Test(arguments: [
        ("null", JSONValue.null), ("true", true), ("false", false), (" \t\r\n 7 \n", 7), (#""a""#, "a"),
        ("[]", []), ("{}", [:]), ("[1,[2,[3]]]", [1, [2, [3]]]), (#"{"a":{"b":[null]}}"#, ["a": ["b": [nil]]]),
        (#"[ "x" , { "k" : false } ]"#, ["x", ["k": false]]), (#""\u00e9\ud83d\ude00""#, "é😀"),
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{c}\n\r\t"), ("\"é😀\"", "é😀"),
    ] as [(String, JSONValue)])
    func validDocuments(text: String, expected: JSONValue) throws {
        #expect(try json(text) == expected)
    }

    @Test(arguments: [
        ("", JSONParseError(offset: 0, reason: .unexpectedEnd)),
        ("   ", JSONParseError(offset: 3, reason: .unexpectedEnd)),
        ("[1 2]", JSONParseError(offset: 3, reason: .unexpectedByte)),
        ("[1,]", JSONParseError(offset: 3, reason: .unexpectedByte)),
        (#"{"a":1,}"#, JSONParseError(offset: 7, reason: .unexpectedByte)),
        ("{1:2}", JSONParseError(offset: 1, reason: .unexpectedByte)),
        (#"{"a" 1}"#, JSONParseError(offset: 5, reason: .unexpectedByte)),
        ("[1", JSONParseError(offset: 2, reason: .unexpectedEnd)),
        ("tru", JSONParseError(offset: 3, reason: .unexpectedEnd)),
        ("nul1", JSONParseError(offset: 3, reason: .unexpectedByte)),
        ("1 2", JSONParseError(offset: 2, reason: .trailingData)),
        ("01", JSONParseError(offset: 1, reason: .invalidNumber)),
        ("-01", JSONParseError(offset: 2, reason: .invalidNumber)),
        ("+1", JSONParseError(offset: 0, reason: .unexpectedByte)),
        (".5", JSONParseError(offset: 0, reason: .unexpectedByte)),
        ("[1.]", JSONParseError(offset: 3, reason: .invalidNumber)),
        ("[1e]", JSONParseError(offset: 3, reason: .invalidNumber)),
        ("[-]", JSONParseError(offset: 2, reason: .invalidNumber)),
        ("NaN", JSONParseError(offset: 0, reason: .unexpectedByte)),
        (#""abc"#, JSONParseError(offset: 4, reason: .unexpectedEnd)),
        ("\"a\u{1}b\"", JSONParseError(offset: 2, reason: .controlCharacterInString)),
        ("\"a\nb\"", JSONParseError(offset: 2, reason: .controlCharacterInString)),
        (#""\x""#, JSONParseError(offset: 1, reason: .invalidEscape)),
        (#""\u12G4""#, JSONParseError(offset: 5, reason: .invalidEscape)),
        (#""\ud800""#, JSONParseError(offset: 1, reason: .loneSurrogate)),
        (#""\ud800\u0041""#, JSONParseError(offset: 1, reason: .loneSurrogate)),
        (#""\udc00""#, JSONParseError(offset: 1, reason: .loneSurrogate)),
        (#""x\ud83dy""#, JSONParseError(offset: 2, reason: .loneSurrogate)),
    ])
    func invalidDocuments(text: String, expected: JSONParseError) {
        #expect(parseError(text) == expected)
    }

    @Test func controlCharacterAfterEscapeIsRejected() {
        #expect(parseError("\"\\n\u{1F}\"")?.reason == .controlCharacterInString)
    }

    @Test func invalidUTF8IsRejected() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0x5C, 0x6E, 0xED, 0xA0, 0x80, 0x22]] {
            #expect(throws: JSONParseError.self) { try JSONValue(parsing: bytes) }
        }
    }

    @Test func hugeNestingFailsWithoutCrashing() {
        let opens = String(repeating: "[", count: 100_000)
        #expect(parseError(opens)?.reason == .tooDeep)
        #expect(parseError(String(repeating: #"{"a":"#, count: 100_000))?.reason == .tooDeep)
        #expect(parseError(opens, maxDepth: 1_000_000)?.reason == .unexpectedEnd)
    }

    @Test func depthLimitIsExact() throws {
        let nested = { (depth: Int) in String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        #expect(parseError(nested(512)) == nil)
        #expect(parseError(nested(513)) == JSONParseError(offset: 512, reason: .tooDeep))
        #expect(parseError(nested(3), maxDepth: 3) == nil)
        #expect(parseError("[[{}]]", maxDepth: 2)?.reason == .tooDeep)
        #expect(parseError("1", maxDepth: 0) == nil)
    }

    @Test func duplicateKeysKeepFirstPositionAndLastValue() throws {
        let object = try #require(try json(#"{"a":1,"b":2,"a":3}"#).objectValue)
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == 3)
    }

    @Test func memberOrderIsKept() throws {
        let value = try json(#"{"z":1,"a":2,"m":3}"#)
        #expect(value.objectValue?.keys == ["z", "a", "m"])
        #expect(text(value) == #"{"z":1,"a":2,"m":3}"#)
    }

    @Test func nonContiguousCollectionsParse() throws {
        let bytes = Array(#"{"a":[1,2]}"#.utf8)
        let value = try JSONValue(parsing: bytes.lazy.map { $0 })
        #expect(value == ["a": [1, 2]])
        #expect(try JSONValue(parsing: bytes[4...].dropFirst(1).dropLast(1)) == [1, 2])
    }

    @Test func largeObjectsUseTheIndexCorrectly() throws {
        let members = (0..<100).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let object = try #require(try json("{\(members),\"k5\":-5}").objectValue)
        #expect(object.count == 100)
        #expect(object["k5"] == -5)
        #expect(object["k99"] == 99)
        #expect(object["k100"] == nil)
    }

    @Test(arguments: [
        (#"{"a":1,"a":2}"#, 7, "/a"),
        (#" { "x" : [ 1 , { "b" : 0 , "c" : 1 , "b" : 2 } ] } "#, 37, "/x/1/b"),
        (#"[[],[0,{}],[{"k":{"d":[],"e~/":1,"e~/":2}}]]"#, 33, "/2/0/k/e~0~1"),
        (#"{"s":[{"a":1},{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"a":0}]}"#, 76, "/s/1/a"),
    ])
    func duplicateKeysCanBeRejectedWithTheirPlace(text: String, offset: Int, pointer: String) throws {
        #expect(throws: Never.self) { try JSONValue(parsing: text) }
        do {
            _ = try JSONValue(parsing: Array(text.utf8), rejectingDuplicateKeys: true)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.reason == .duplicateKey)
            #expect(error.offset == offset)
            #expect(error.pointer?.description == pointer)
            #expect(error.description == "duplicate key at byte \(offset) (\(pointer))")
        }
    }

    /// A big object is checked with one set insert per name (50,000 keys, then a repeat of the last); names are
    /// compared as the object stores them, so two it would merge ("é" and "e" + U+0301) are refused, not merged.
    @Test func duplicateNamesAreFoundInOnePassAsTheObjectComparesThem() throws {
        let members = (0..<50_000).map { #""k\#($0)":1"# }.joined(separator: ",")
        #expect(throws: Never.self) { try JSONValue(parsing: Array("{\(members)}".utf8), rejectingDuplicateKeys: true) }
        do {
            _ = try JSONValue(parsing: Array("{\(members),\"k49999\":2}".utf8), rejectingDuplicateKeys: true)
            Issue.record("accepted a repeated k49999")
        } catch {
            #expect(error.reason == .duplicateKey)
            #expect(error.pointer?.description == "/k49999")
        }
        #expect(throws: JSONParseError.self) {
            try JSONValue(parsing: Array(#"{"\u00e9":1,"e\u0301":2}"#.utf8), rejectingDuplicateKeys: true)
        }
    }

    /// Objects at the same depth that only arrays separate are different objects (their names were once mixed up).
    @Test(arguments: [
        #"[[0,{"a":1}],[{"a":1}]]"#,
        #"{"board":[[null,{"piece":"x"}],[{"piece":"o"},null]]}"#,
        #"[{"k":0,"j":{"a":1}},[{"a":1}]]"#,
        #"[[0,0,{"a":1}],[0,{"a":1}]]"#,
        #"[{"a":{"b":1}},{"a":{"b":1}},[{"b":1},{"b":1}]]"#,
    ])
    func objectsSeparatedByArraysKeepTheirOwnNames(text: String) throws {
        #expect(try JSONValue(parsing: Array(text.utf8), rejectingDuplicateKeys: true) == JSONValue(parsing: text))
    }

    @Test func uniqueKeysPassWhenDuplicatesAreRejected() throws {
        let text = #"{"a":{"a":{"a":[{"a":1},{"a":2}]}},"b":[{"a":1,"b":2}],"c":{}}"#
        #expect(try JSONValue(parsing: text, rejectingDuplicateKeys: true) == JSONValue(parsing: text))
    }
}
