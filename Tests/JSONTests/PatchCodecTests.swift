import JSON
import Testing

@Suite struct PatchCodecTests {
    @Test func serializesAllOperations() throws {
        let ops: [JSONPatchOperation] = [
            .add(path: pointer("/a/-"), value: ["k": [1]]), .remove(path: pointer("/b")),
            .replace(path: pointer("/count"), value: 3), .move(from: pointer("/x"), path: pointer("/y")),
            .copy(from: pointer("/m~0n"), path: pointer("/a~1b")), .test(path: .root, value: "q\""),
        ]
        let expected = #"[{"op":"add","path":"/a/-","value":{"k":[1]}},{"op":"remove","path":"/b"},"#
            + #"{"op":"replace","path":"/count","value":3},{"op":"move","from":"/x","path":"/y"},"#
            + #"{"op":"copy","from":"/m~0n","path":"/a~1b"},{"op":"test","path":"","value":"q\""}]"#
        #expect(String(decoding: JSONPatch.serialize(ops), as: UTF8.self) == expected)
        #expect(try JSONPatch.parse(Array(expected.utf8)) == ops)
        #expect(JSONPatch.serialize([]) == Array("[]".utf8))
    }

    @Test func parseAcceptsNullValuesAndIgnoresUnknownMembers() throws {
        let ops = try JSONPatch.parse(Array(#"[{"value":null,"path":"/a","op":"add","extra":[1]}]"#.utf8))
        #expect(ops == [.add(path: pointer("/a"), value: nil)])
    }

    @Test(arguments: [
        (#"{"op":"add"}"#, 0), (#"[1]"#, 0), (#"[{"op":"add","path":"/a"}]"#, 0), (#"[{"op":"jump","path":""}]"#, 0),
        (#"[{"op":"remove","path":"/a"},{"op":"move","path":"/a"}]"#, 1), (#"[{"op":"remove","path":"a"}]"#, 0),
        (#"[{"op":"remove","path":7}]"#, 0), (#"[{"op":"copy","from":"/a~","path":"/b"}]"#, 0),
    ])
    func malformedDocumentsAreRejected(patch: String, index: Int) {
        do {
            _ = try JSONPatch.parse(Array(patch.utf8))
            Issue.record("parsed \(patch)")
        } catch let error as JSONPatchError {
            #expect(error.operationIndex == index)
            guard case .malformedOperation = error.reason else {
                Issue.record("unexpected reason \(error.reason)")
                return
            }
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func syntaxErrorsAreParseErrors() {
        #expect(throws: JSONParseError.self) { try JSONPatch.parse(Array("[{".utf8)) }
    }
}
