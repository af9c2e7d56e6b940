import JSON
import Testing

/// RFC 6901 §5: the example document.
private let rfc6901Document = #"""
    {
      "foo": ["bar", "baz"],
      "": 0,
      "a/b": 1,
      "c%d": 2,
      "e^f": 3,
      "g|h": 4,
      "i\\j": 5,
      "k\"l": 6,
      " ": 7,
      "m~n": 8
    }
    """#

@Suite struct PointerTests {
    @Test(arguments: [
        ("", nil), ("/foo", #"["bar","baz"]"#), ("/foo/0", #""bar""#), ("/", "0"), ("/a~1b", "1"), ("/c%d", "2"),
        ("/e^f", "3"), ("/g|h", "4"), (#"/i\j"#, "5"), (#"/k"l"#, "6"), ("/ ", "7"), ("/m~0n", "8"),
    ] as [(String, String?)])
    func rfc6901Section5Examples(pointerText: String, expectedText: String?) throws {
        let document = try json(rfc6901Document)
        let expected = try expectedText.map { try json($0) } ?? document
        #expect(document[pointer: try JSONPointer(pointerText)] == expected)
    }

    @Test func tokensAndEscapedText() throws {
        #expect(try JSONPointer("").tokens == [])
        #expect(try JSONPointer("/").tokens == [""])
        #expect(try JSONPointer("/a~1b/~0/~01").tokens == ["a/b", "~", "~1"])
        #expect(JSONPointer(tokens: ["a/b", "~", "~1", ""]).description == "/a~1b/~0/~01/")
        #expect(JSONPointer(tokens: []).description == "")
        for text in ["", "/", "//", "/a~1b/~0/~01", "/é/😀"] {
            #expect(try JSONPointer(text).description == text)
        }
    }

    @Test func invalidTextThrows() {
        #expect(throws: JSONPointerError.missingLeadingSlash("a")) { try JSONPointer("a") }
        #expect(throws: JSONPointerError.invalidEscape("/a~2")) { try JSONPointer("/a~2") }
        #expect(throws: JSONPointerError.invalidEscape("/a~")) { try JSONPointer("/a~") }
    }

    @Test func unresolvablePointersGiveNil() throws {
        let document = try json(#"{"a":[10,20],"s":"x"}"#)
        for text in ["/b", "/a/2", "/a/-", "/a/01", "/a/+1", "/a/ 1", "/s/0", "/a/0/x", "/a/99999999999999999999999"] {
            #expect(document[pointer: try JSONPointer(text)] == nil, "\(text)")
        }
        #expect(document[pointer: try JSONPointer("/a/1")] == 20)
    }

    @Test func prefixRelation() throws {
        #expect(try JSONPointer("/a/b").hasPrefix(JSONPointer("/a")))
        #expect(try JSONPointer("/a").hasPrefix(JSONPointer("/a")))
        #expect(try JSONPointer("/a").hasPrefix(JSONPointer("")))
        #expect(try !JSONPointer("/ab").hasPrefix(JSONPointer("/a")))
        #expect(try JSONPointer("/a").appending("b/c").description == "/a/b~1c")
    }
}
