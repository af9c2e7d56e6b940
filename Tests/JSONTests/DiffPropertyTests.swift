import JSON
import Testing

@Suite struct DiffPropertyTests {
    /// Checks the diff contract for one pair; returns the ops for further checks.
    @discardableResult
    private func checkDiff(_ old: JSONValue, _ new: JSONValue, seed: UInt64) throws -> [JSONPatchOperation] {
        let ops = JSONPatch.diff(from: old, to: new)
        let patched = try JSONPatch.apply(ops, to: old)
        #expect(patched == new, "seed \(seed): \(old) → \(new) via \(String(decoding: JSONPatch.serialize(ops), as: UTF8.self))")
        #expect(ops.allSatisfy { op in
            switch op {
            case .add, .remove, .replace: true
            default: false
            }
        }, "seed \(seed)")
        #expect(try JSONPatch.parse(JSONPatch.serialize(ops)) == ops, "seed \(seed)")
        if old == new { #expect(ops.isEmpty, "seed \(seed)") }
        return ops
    }

    @Test(arguments: 0..<40)
    func mutatedPairsRoundTrip(batch: Int) throws {
        for offset in 0..<50 {
            let seed = UInt64(batch * 50 + offset)
            var random = RandomJSON(seed: seed)
            let old = random.value(depth: 5)
            let new = random.mutated(old, depth: 5)
            try checkDiff(old, new, seed: seed)
            try checkDiff(new, old, seed: seed)
            #expect(JSONPatch.diff(from: old, to: old).isEmpty)
        }
    }

    @Test(arguments: 0..<10)
    func unrelatedPairsRoundTrip(batch: Int) throws {
        for offset in 0..<50 {
            let seed = UInt64(1_000_000 + batch * 50 + offset)
            var random = RandomJSON(seed: seed)
            let old = random.value(depth: 4)
            let new = random.value(depth: 4)
            try checkDiff(old, new, seed: seed)
        }
    }

    @Test func reorderedMembersAndEquivalentNumbersGiveNoOps() throws {
        let old = try json(#"{"a":1,"b":{"x":[1.0,2],"y":null}}"#)
        let new = try json(#"{"b":{"y":null,"x":[1,2e0]},"a":1.00}"#)
        #expect(JSONPatch.diff(from: old, to: new).isEmpty)
    }

    @Test func generatorProducesVariety() {
        var random = RandomJSON(seed: 7)
        var kinds = Set<String>()
        for _ in 0..<200 {
            switch random.value(depth: 3) {
            case .array(let elements): kinds.insert(elements.count >= 10 ? "long array" : "array")
            case .object: kinds.insert("object")
            default: kinds.insert("scalar")
            }
        }
        #expect(kinds == ["long array", "array", "object", "scalar"])
    }
}
