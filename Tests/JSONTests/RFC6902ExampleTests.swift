import JSON
import Testing

/// RFC 6902 Appendix A: (section, document, patch, expected result or nil for an error).
private let appendixA: [(String, String, String, String?)] = [
    ("A.1", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux"}]"#, #"{"baz":"qux","foo":"bar"}"#),
    ("A.2", #"{"foo":["bar","baz"]}"#, #"[{"op":"add","path":"/foo/1","value":"qux"}]"#,
     #"{"foo":["bar","qux","baz"]}"#),
    ("A.3", #"{"baz":"qux","foo":"bar"}"#, #"[{"op":"remove","path":"/baz"}]"#, #"{"foo":"bar"}"#),
    ("A.4", #"{"foo":["bar","qux","baz"]}"#, #"[{"op":"remove","path":"/foo/1"}]"#, #"{"foo":["bar","baz"]}"#),
    ("A.5", #"{"baz":"qux","foo":"bar"}"#, #"[{"op":"replace","path":"/baz","value":"boo"}]"#,
     #"{"baz":"boo","foo":"bar"}"#),
    ("A.6", #"{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}"#,
     #"[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]"#,
     #"{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}"#),
    ("A.7", #"{"foo":["all","grass","cows","eat"]}"#, #"[{"op":"move","from":"/foo/1","path":"/foo/3"}]"#,
     #"{"foo":["all","cows","eat","grass"]}"#),
    ("A.8", #"{"baz":"qux","foo":["a",2,"c"]}"#,
     #"[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]"#,
     #"{"baz":"qux","foo":["a",2,"c"]}"#),
    ("A.9", #"{"baz":"qux"}"#, #"[{"op":"test","path":"/baz","value":"bar"}]"#, nil),
    ("A.10", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/child","value":{"grandchild":{}}}]"#,
     #"{"foo":"bar","child":{"grandchild":{}}}"#),
    ("A.11", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux","xyz":123}]"#,
     #"{"foo":"bar","baz":"qux"}"#),
    ("A.12", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz/bat","value":"qux"}]"#, nil),
    ("A.13", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux","op":"remove"}]"#, nil),
    ("A.14", #"{"/":9,"~1":10}"#, #"[{"op":"test","path":"/~01","value":10}]"#, #"{"/":9,"~1":10}"#),
    ("A.15", #"{"/":9,"~1":10}"#, #"[{"op":"test","path":"/~01","value":"10"}]"#, nil),
    ("A.16", #"{"foo":["bar"]}"#, #"[{"op":"add","path":"/foo/-","value":["abc","def"]}]"#,
     #"{"foo":["bar",["abc","def"]]}"#),
]

@Suite struct RFC6902ExampleTests {
    @Test(arguments: appendixA)
    func appendixAExample(section: String, documentText: String, patchText: String, expectedText: String?) throws {
        let document = try json(documentText)
        let ops = try JSONPatch.parse(Array(patchText.utf8))
        if let expectedText {
            #expect(try JSONPatch.apply(ops, to: document) == json(expectedText), "\(section)")
        } else {
            #expect(throws: JSONPatchError.self, "\(section)") { try JSONPatch.apply(ops, to: document) }
        }
    }

    @Test func appendixAErrorReasons() throws {
        func reason(_ document: String, _ patch: String) throws -> JSONPatchError.Reason? {
            do {
                _ = try JSONPatch.apply(JSONPatch.parse(Array(patch.utf8)), to: json(document))
                return nil
            } catch let error as JSONPatchError {
                return error.reason
            }
        }
        #expect(try reason(appendixA[8].1, appendixA[8].2) == .testFailed)
        #expect(try reason(appendixA[11].1, appendixA[11].2) == .pathNotFound)
        #expect(try reason(appendixA[14].1, appendixA[14].2) == .testFailed)
    }

    @Test func appendixA7MovePreservesUntouchedOrder() throws {
        let result = try JSONPatch.apply(
            [.move(from: pointer("/foo/1"), path: pointer("/foo/3"))], to: json(#"{"foo":["all","grass","cows","eat"]}"#))
        #expect(text(result) == #"{"foo":["all","cows","eat","grass"]}"#)
    }
}
