import JSON
import Testing

@Suite struct JSONObjectTests {
    @Test(arguments: [4, 20])
    func insertReplaceRemoveKeepOrder(size: Int) {
        var object = JSONObject()
        for number in 0..<size {
            object["k\(number)"] = .number(JSONNumber(number))
        }
        object["k1"] = "replaced"
        #expect(object.keys.prefix(3) == ["k0", "k1", "k2"])
        #expect(object.removeValue(forKey: "k0") == 0)
        #expect(object.removeValue(forKey: "k0") == nil)
        object["k2"] = nil
        #expect(object.count == size - 2)
        #expect(object["k1"] == "replaced")
        #expect(object["k2"] == nil)
        #expect(object.position(of: "k1") == 0)
        #expect(object.position(of: "k\(size - 1)") == size - 3)
        object["new"] = true
        #expect(object.keys.last == "new")
        #expect(object.map(\.key) == object.keys)
    }

    @Test func equalityAndHashIgnoreOrder() {
        let forward: JSONObject = ["a": 1, "b": [1, 2], "c": nil]
        let backward: JSONObject = ["c": nil, "b": [1, 2], "a": 1.0]
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        #expect(forward != ["a": 1, "b": [2, 1], "c": nil])
        #expect(forward != ["a": 1, "b": [1, 2]])
        #expect(forward != ["a": 1, "b": [1, 2], "d": nil])
    }

    @Test func parsedDuplicatesInLargeObjects() throws {
        let members = (0..<12).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let object = try #require(try json(#"{"# + members + #","k0":"last","k11":null}"#).objectValue)
        #expect(object.count == 12)
        #expect(object.keys.first == "k0")
        #expect(object["k0"] == "last")
        #expect(object["k11"] == nil as JSONValue)
        #expect(object["k11"] != nil)
    }
}
