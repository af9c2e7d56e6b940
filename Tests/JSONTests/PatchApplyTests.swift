import JSON
import Testing

@Suite struct PatchApplyTests {
    private func failure(_ ops: [JSONPatchOperation], _ document: JSONValue) -> JSONPatchError? {
        do {
            _ = try JSONPatch.apply(ops, to: document)
            return nil
        } catch {
            return error
        }
    }

    @Test func rootOperations() throws {
        let document: JSONValue = ["a": 1]
        #expect(try JSONPatch.apply([.add(path: .root, value: [1])], to: document) == [1])
        #expect(try JSONPatch.apply([.replace(path: .root, value: "x")], to: document) == "x")
        #expect(try JSONPatch.apply([.test(path: .root, value: ["a": 1.0])], to: document) == document)
        #expect(failure([.remove(path: .root)], document)?.reason == .cannotRemoveRoot)
    }

    @Test func addReplacesExistingMemberInPlace() throws {
        let result = try JSONPatch.apply([.add(path: pointer("/a"), value: 9)], to: ["a": 1, "b": 2])
        #expect(text(result) == #"{"a":9,"b":2}"#)
    }

    @Test func arrayIndexRules() throws {
        let document: JSONValue = ["a": [0, 1]]
        #expect(try JSONPatch.apply([.add(path: pointer("/a/2"), value: 2)], to: document) == ["a": [0, 1, 2]])
        #expect(try JSONPatch.apply([.add(path: pointer("/a/-"), value: 2)], to: document) == ["a": [0, 1, 2]])
        #expect(failure([.add(path: pointer("/a/3"), value: 2)], document)?.reason == .invalidArrayIndex)
        #expect(failure([.add(path: pointer("/a/01"), value: 2)], document)?.reason == .invalidArrayIndex)
        #expect(failure([.remove(path: pointer("/a/-"))], document)?.reason == .invalidArrayIndex)
        #expect(failure([.remove(path: pointer("/a/2"))], document)?.reason == .pathNotFound)
        #expect(failure([.replace(path: pointer("/a/x"), value: 1)], document)?.reason == .invalidArrayIndex)
        #expect(failure([.add(path: pointer("/a/0/x"), value: 1)], document)?.reason == .notAContainer)
    }

    @Test func copyAndMove() throws {
        let document: JSONValue = ["a": ["b": [1, 2]], "c": nil]
        let copied = try JSONPatch.apply([.copy(from: pointer("/a/b"), path: pointer("/c"))], to: document)
        #expect(copied == ["a": ["b": [1, 2]], "c": [1, 2]])
        let moved = try JSONPatch.apply([.move(from: pointer("/a/b/0"), path: pointer("/a/b/-"))], to: document)
        #expect(moved == ["a": ["b": [2, 1]], "c": nil])
        #expect(try JSONPatch.apply([.move(from: pointer("/a"), path: pointer("/a"))], to: document) == document)
        let intoChild = failure([.move(from: pointer("/a"), path: pointer("/a/b/x"))], document)
        #expect(intoChild?.reason == .moveIntoDescendant)
        #expect(failure([.copy(from: pointer("/zz"), path: pointer("/c"))], document)?.reason == .pathNotFound)
        #expect(failure([.move(from: pointer("/zz"), path: pointer("/zz"))], document)?.reason == .pathNotFound)
    }

    @Test func errorsNameTheOperationAndFullPointer() throws {
        let document: JSONValue = ["a": ["b": [1]]]
        let ops: [JSONPatchOperation] = [
            .test(path: pointer("/a/b/0"), value: 1), .remove(path: pointer("/a/b/0")), .remove(path: pointer("/a/b/0")),
        ]
        let error = try #require(failure(ops, document))
        #expect(error == JSONPatchError(operationIndex: 2, pointer: "/a/b/0", reason: .pathNotFound))
    }

    @Test func testUsesSemanticEquality() throws {
        let document = try json(#"{"o":{"x":1,"y":[1.0]}}"#)
        #expect(throws: Never.self) {
            try JSONPatch.apply([.test(path: pointer("/o"), value: json(#"{"y":[1],"x":1e0}"#))], to: document)
        }
        #expect(failure([.test(path: pointer("/o/x"), value: "1")], document)?.reason == .testFailed)
        #expect(failure([.test(path: pointer("/o/z"), value: nil)], document)?.reason == .pathNotFound)
    }

    @Test func inputIsUnchangedWhenAPatchFails() throws {
        let document: JSONValue = ["a": [1, 2, 3]]
        let copy = document
        #expect(failure([.remove(path: pointer("/a/0")), .test(path: pointer("/a/0"), value: 1)], document) != nil)
        #expect(document == copy)
        #expect(text(document) == #"{"a":[1,2,3]}"#)
    }
}
