import Foundation
import JSONCoding
import JSON
import Testing

/// Coding paths through several levels of nested containers (positions beyond the coder's own path stack),
/// compared with Foundation: reported by containers and nested coders, and in errors.
@Suite struct NestedPathTests {
    @Test func encoderPathsThroughNestedContainers() throws {
        let ours = PathLog()
        let theirs = PathLog()
        let bytes = try JSONBytesEncoder().encode(["k": DeepProbe(log: ours)])
        let expected = try Oracle.foundationEncode(["k": DeepProbe(log: theirs)])
        #expect(Oracle.text(bytes) == Oracle.text(expected))
        #expect(ours.paths.dropLast() == theirs.paths.dropLast())
        // A value encoded into a nested container: Foundation's encoder reports its own path plus the key
        // (["k", "leaf"]); this encoder reports the full path, as the decoders do.
        #expect(ours.paths.last == ["k", "a", "Index 1", "b", "leaf"])
        #expect(theirs.paths.last == ["k", "leaf"])
    }

    @Test func decoderPathsThroughNestedContainers() throws {
        let good = #"{"k":{"a":[0,{"b":{"leaf":{"x":1}}}]}}"#
        let decoded = try JSONValueDecoder().decode([String: DeepProbe].self, from: Array(good.utf8))
        let expected = try JSONDecoder().decode([String: DeepProbe].self, from: Data(good.utf8))
        #expect(decoded["k"]?.paths == expected["k"]?.paths)
        #expect(decoded["k"]?.paths.last == ["k", "a", "Index 1", "b", "leaf"])
        for bad in [
            #"{"k":{"a":[0,{"b":{"leaf":{"x":"1"}}}]}}"#, #"{"k":{"a":[0,{"b":{"leaf":{}}}]}}"#,
            #"{"k":{"a":[0,{"b":{"leaf":7}}]}}"#, #"{"k":{"a":[0,{"b":[]}]}}"#, #"{"k":{"a":[0]}}"#,
            #"{"k":{"a":[0,{"b":{"leaf":{"x":1.5}}}]}}"#,
        ] {
            #expect(Oracle.ours([String: DeepProbe].self, bad) == Oracle.foundation([String: DeepProbe].self, bad))
        }
    }
}

/// `{"a":[0,{"b":{"leaf":{"x":1}}}]}` through nested keyed and unkeyed containers, logging their paths.
struct DeepProbe: Codable, Equatable {
    var paths: [[String]] = []
    var log: PathLog?

    enum Keys: String, CodingKey { case a, b, x, leaf }

    init(log: PathLog) {
        self.log = log
    }

    init(from decoder: any Decoder) throws {
        let top = try decoder.container(keyedBy: Keys.self)
        var list = try top.nestedUnkeyedContainer(forKey: .a)
        paths.append(list.codingPath.map(\.stringValue))
        _ = try list.decode(Int.self)
        let inner = try list.nestedContainer(keyedBy: Keys.self)
        paths.append(inner.codingPath.map(\.stringValue))
        let deeper = try inner.nestedContainer(keyedBy: Keys.self, forKey: .b)
        paths.append(deeper.codingPath.map(\.stringValue))
        let leaf = try deeper.decode(Leaf.self, forKey: .leaf)
        paths.append(leaf.path)
    }

    func encode(to encoder: any Encoder) throws {
        var top = encoder.container(keyedBy: Keys.self)
        var list = top.nestedUnkeyedContainer(forKey: .a)
        log?.paths.append(list.codingPath.map(\.stringValue))
        try list.encode(0)
        var inner = list.nestedContainer(keyedBy: Keys.self)
        log?.paths.append(inner.codingPath.map(\.stringValue))
        var deeper = inner.nestedContainer(keyedBy: Keys.self, forKey: .b)
        log?.paths.append(deeper.codingPath.map(\.stringValue))
        try deeper.encode(Leaf(log: log), forKey: .leaf)
    }

    static func == (left: DeepProbe, right: DeepProbe) -> Bool { left.paths == right.paths }
}

/// `{"x":1}`, recording the path of its own coder.
struct Leaf: Codable {
    var path: [String] = []
    var log: PathLog?

    enum Keys: String, CodingKey { case x }

    init(log: PathLog?) {
        self.log = log
    }

    init(from decoder: any Decoder) throws {
        path = decoder.codingPath.map(\.stringValue)
        _ = try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .x)
    }

    func encode(to encoder: any Encoder) throws {
        log?.paths.append(encoder.codingPath.map(\.stringValue))
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .x)
    }
}
