import JSON
import Testing

@Suite struct DiffShapeTests {
    private let large: JSONValue = .array((0..<10_000).map { .number(JSONNumber($0)) })
    private let largeObjects: JSONValue = .array((0..<10_000).map { ["id": .number(JSONNumber($0)), "done": false] })

    private func replacing(_ value: JSONValue, at index: Int, with element: JSONValue) -> JSONValue {
        var elements = value.arrayValue ?? []
        elements[index] = element
        return .array(elements)
    }

    @Test func equalInputsGiveNoOps() throws {
        #expect(JSONPatch.diff(from: large, to: large).isEmpty)
        let copy = try JSONValue(parsing: largeObjects.serialized())
        #expect(JSONPatch.diff(from: largeObjects, to: copy).isEmpty)
    }

    @Test func oneChangedElementOfALargeArrayIsOneOp() throws {
        let new = replacing(large, at: 5_000, with: "x")
        #expect(JSONPatch.diff(from: large, to: new) == [.replace(path: pointer("/5000"), value: "x")])
    }

    @Test func oneChangedFieldInALargeArrayOfObjectsIsOneNestedOp() throws {
        let new = replacing(largeObjects, at: 9_999, with: ["id": 9_999, "done": true])
        #expect(JSONPatch.diff(from: largeObjects, to: new) == [.replace(path: pointer("/9999/done"), value: true)])
    }

    @Test func appendsAndTrailingRemovals() throws {
        let old: JSONValue = [1, 2, 3]
        #expect(JSONPatch.diff(from: old, to: [1, 2, 3, 4, 5]) == [
            .add(path: pointer("/3"), value: 4), .add(path: pointer("/4"), value: 5),
        ])
        #expect(JSONPatch.diff(from: old, to: [1]) == [.remove(path: pointer("/2")), .remove(path: pointer("/1"))])
        var appended = large.arrayValue ?? []
        appended.append(10_000)
        #expect(JSONPatch.diff(from: large, to: .array(appended)) == [.add(path: pointer("/10000"), value: 10_000)])
    }

    @Test func middleInsertAndRemoveAreSingleOps() throws {
        var inserted = large.arrayValue ?? []
        inserted.insert("new", at: 1_234)
        #expect(JSONPatch.diff(from: large, to: .array(inserted)) == [.add(path: pointer("/1234"), value: "new")])
        var removed = large.arrayValue ?? []
        removed.remove(at: 4_321)
        #expect(JSONPatch.diff(from: large, to: .array(removed)) == [.remove(path: pointer("/4321"))])
    }

    @Test func scatteredShiftFallsBackToReplacingTheArray() throws {
        var shifted = large.arrayValue ?? []
        shifted.insert("new", at: 10)
        shifted.remove(at: 9_000)
        let ops = JSONPatch.diff(from: large, to: .array(shifted))
        #expect(ops == [.replace(path: .root, value: .array(shifted))])
    }

    @Test func objectMembers() throws {
        let old = try json(#"{"keep":1,"drop":2,"change":{"deep":[1,2]}}"#)
        let new = try json(#"{"keep":1,"change":{"deep":[1,3]},"new/key":null}"#)
        #expect(JSONPatch.diff(from: old, to: new) == [
            .remove(path: pointer("/drop")), .replace(path: pointer("/change/deep/1"), value: 3),
            .add(path: pointer("/new~1key"), value: nil),
        ])
    }

    @Test func kindChangesAreReplacements() throws {
        #expect(JSONPatch.diff(from: ["a": [1]], to: ["a": ["1": 1]]) == [
            .replace(path: pointer("/a"), value: ["1": 1])
        ])
        #expect(JSONPatch.diff(from: 1, to: "1") == [.replace(path: .root, value: "1")])
        #expect(JSONPatch.diff(from: nil, to: false) == [.replace(path: .root, value: false)])
    }
}
