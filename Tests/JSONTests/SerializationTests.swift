import JSON
import Testing

@Suite struct SerializationTests {
    @Test func compactOutput() throws {
        let value = try json(#" { "a" : [ 1 , true , null , "x" ] , "b" : { } , "c" : [ ] } "#)
        #expect(text(value) == #"{"a":[1,true,null,"x"],"b":{},"c":[]}"#)
    }

    @Test func sortedKeysUseByteOrder() throws {
        let value = try json(#"{"b":1,"a":{"z":0,"é":1,"Z":2},"B":2,"aa":3}"#)
        #expect(text(value, sortedKeys: true) == #"{"B":2,"a":{"Z":2,"z":0,"é":1},"aa":3,"b":1}"#)
        #expect(text(value) == #"{"b":1,"a":{"z":0,"é":1,"Z":2},"B":2,"aa":3}"#)
    }

    @Test func stringEscapes() {
        let value = JSONValue.string("q\"b\\s/\n\t\u{8}\u{C}\r\u{0}\u{1F}\u{7F}é😀")
        #expect(text(value) == #""q\"b\\s/\n\t\b\f\r\u0000\u001f"# + "\u{7F}é😀\"")
    }

    @Test func everyControlCharacterIsEscapedAndReadsBack() throws {
        let all = String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) })
        let bytes = JSONValue.string(all).serialized()
        #expect(!bytes.contains { $0 < 0x20 })
        #expect(try JSONValue(parsing: bytes) == .string(all))
    }

    @Test func longStringsWithEscapesReadBack() throws {
        // Past the escaper's 1,024-byte chunks and eight-byte words, escapes at every offset class.
        for length in [7, 8, 9, 1023, 1024, 1025, 5000] {
            for stride in [1, 3, 8, 13, 1000] {
                let string = String((0..<length).map { $0 % stride == 0 ? "\n" : ($0 % 5 == 0 ? "é" : "a") })
                let bytes = JSONValue.string(string).serialized()
                #expect(!bytes.contains { $0 < 0x20 })
                #expect(try JSONValue(parsing: bytes) == .string(string))
            }
        }
    }

    @Test func writeAppends() {
        var output = Array("x=".utf8)
        JSONValue.array([1, "a"]).write(into: &output)
        #expect(String(decoding: output, as: UTF8.self) == #"x=[1,"a"]"#)
    }

    @Test func parseSerializeRoundTripIsByteExact() throws {
        let source = #"{"n":[0,-0,1.0,1e400,-2.5E-3],"s":"é\u0000\"","o":{"z":null,"a":[[],{}]}}"#
        let value = try json(source)
        let once = value.serialized()
        #expect(try JSONValue(parsing: once) == value)
        #expect(try JSONValue(parsing: once).serialized() == once)
        #expect(String(decoding: once, as: UTF8.self) == source)
    }

    @Test func descriptionIsCompactJSON() {
        let value: JSONValue = ["a": [1, 2.5, nil, true]]
        #expect(value.description == #"{"a":[1,2.5,null,true]}"#)
    }
}
