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
        let value = JSONValue.string("q\"b\\s/\n\t\u{0}\u{1F}\u{7F}é😀")
        #expect(text(value) == #""q\"b\\s/\u000a\u0009\u0000\u001f"# + "\u{7F}é😀\"")
    }

    @Test func everyControlCharacterIsEscapedAndReadsBack() throws {
        let all = String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) })
        let bytes = JSONValue.string(all).serialized()
        #expect(!bytes.contains { $0 < 0x20 })
        #expect(try JSONValue(parsing: bytes) == .string(all))
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
