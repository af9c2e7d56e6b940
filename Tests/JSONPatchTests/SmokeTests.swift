import JSONPatch
import Testing

@Suite struct SmokeTests {
    @Test func parseDiffApplyRoundTrip() throws {
        let old = try json(#"{"count":1,"items":[1,2,3],"name":"a"}"#)
        let new = try json(#"{"count":2,"items":[1,2,3,4],"tag":null}"#)
        let ops = JSONPatch.diff(from: old, to: new)
        #expect(try JSONPatch.apply(ops, to: old) == new)
        #expect(try JSONPatch.parse(JSONPatch.serialize(ops)) == ops)
    }
}
