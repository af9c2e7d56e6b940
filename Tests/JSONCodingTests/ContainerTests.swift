import Foundation
import JSONCoding
import JSON
import Testing

/// Records the coding paths a decoder reports, to compare with Foundation.
struct PathProbe: Decodable, Equatable {
    var decoderPath: [String]
    var nestedPath: [String]?

    init(from decoder: any Decoder) throws {
        decoderPath = decoder.codingPath.map(\.stringValue)
        if let container = try? decoder.container(keyedBy: NamedKey.self),
            let nested = try? container.nestedUnkeyedContainer(forKey: NamedKey(stringValue: "list")!)
        {
            nestedPath = nested.codingPath.map(\.stringValue)
        }
    }
}

struct NamedKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Records the coding paths an encoder reports.
final class PathLog {
    var paths: [[String]] = []
}

struct EncoderPathProbe: Encodable {
    let log: PathLog

    func encode(to encoder: any Encoder) throws {
        log.paths.append(encoder.codingPath.map(\.stringValue))
        var container = encoder.container(keyedBy: NamedKey.self)
        let nested = container.nestedUnkeyedContainer(forKey: NamedKey(stringValue: "list")!)
        log.paths.append(nested.codingPath.map(\.stringValue))
    }
}

/// Nested unkeyed containers `depth` deep around a 0.
struct Nest: Encodable {
    let depth: Int

    func encode(to encoder: any Encoder) throws {
        if depth == 0 {
            var single = encoder.singleValueContainer()
            try single.encode(0)
        } else {
            var container = encoder.unkeyedContainer()
            try container.encode(Nest(depth: depth - 1))
        }
    }
}

@Suite struct ContainerTests {
    @Test func unkeyedContainerTracksIndexAndDoesNotAdvanceOnFailure() throws {
        let decoder = JSONValueDecoder().decoder(for: try JSONValue(parsing: #"[1,null,"x"]"#))
        var container = try decoder.unkeyedContainer()
        #expect(container.count == 3 && !container.isAtEnd && container.currentIndex == 0)
        #expect(try container.decode(Int.self) == 1)
        #expect(try container.decodeNil() && container.currentIndex == 2)
        #expect(throws: DecodingError.self) { try container.decode(Int.self) }
        #expect(container.currentIndex == 2)
        #expect(try !container.decodeNil())
        #expect(try container.decode(String.self) == "x")
        #expect(container.isAtEnd)
        do {
            _ = try container.decode(Int.self)
            Issue.record("expected valueNotFound")
        } catch DecodingError.valueNotFound(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["Index 3"])
            #expect(context.codingPath.last?.intValue == 3)
        }
        #expect(try container.decodeIfPresent(Int.self) == nil)
    }

    @Test func decoderCodingPathsMatchFoundation() throws {
        let text = #"{"a":[{"list":[]},{"b":{"list":[1]}}],"c":{"list":{}}}"#
        typealias Shape = [String: [PathProbe]]
        let json = #"{"a":[{"list":[]},{"list":[1]}],"c":[{"x":1}]}"#
        let ours = try JSONValueDecoder().decode(Shape.self, from: Array(json.utf8))
        let theirs = try JSONDecoder().decode(Shape.self, from: Data(json.utf8))
        #expect(ours == theirs)
        #expect(ours["a"]?[1].nestedPath == ["a", "Index 1", "list"])
        #expect(Oracle.ours([String: PathProbe].self, text) == Oracle.foundation([String: PathProbe].self, text))
    }

    @Test func encoderCodingPathsMatchFoundation() throws {
        let ours = PathLog()
        let theirs = PathLog()
        _ = try JSONBytesEncoder().encode(["k": [EncoderPathProbe(log: ours)]])
        _ = try Oracle.foundationEncode(["k": [EncoderPathProbe(log: theirs)]])
        #expect(ours.paths == theirs.paths)
        #expect(ours.paths == [["k", "Index 0"], ["k", "Index 0", "list"]])
    }

    @Test func decoderForValueServesWrappingDecoders() throws {
        let payload = try JSONValue(parsing: #"{"add":{"amount":5}}"#)
        let decoder = JSONValueDecoder().decoder(for: payload)
        #expect(try Action(from: decoder) == .add(amount: 5))
        #expect(try Action(from: decoder) == .add(amount: 5))
        #expect(decoder.codingPath.isEmpty)
        let bad = JSONValueDecoder().decoder(for: try JSONValue(parsing: #"{"add":{"amount":1.5}}"#))
        #expect(throws: DecodingError.self) { try Action(from: bad) }
    }

    @Test func superDecoderOfAMissingKeyReadsNull() throws {
        let decoder = JSONValueDecoder().decoder(for: try JSONValue(parsing: #"{"a":1}"#))
        let container = try decoder.container(keyedBy: NamedKey.self)
        let missing = try container.superDecoder(forKey: NamedKey(stringValue: "zzz")!)
        #expect(try missing.singleValueContainer().decodeNil())
        #expect(missing.codingPath.map(\.stringValue) == ["zzz"])
        let superDecoder = try container.superDecoder()
        #expect(superDecoder.codingPath.map(\.stringValue) == ["super"])
        #expect(container.allKeys.map(\.stringValue) == ["a"])
        #expect(container.contains(NamedKey(stringValue: "a")!))
        #expect(try container.decodeIfPresent(Int.self, forKey: NamedKey(stringValue: "b")!) == nil)
    }

    @Test(arguments: [510, 511, 512, 513])
    func nestingLimitMatchesFoundation(depth: Int) throws {
        let ours = Result { try JSONBytesEncoder().encode(Nest(depth: depth)) }
        let theirs = Result { try Oracle.foundationEncode(Nest(depth: depth)) }
        switch (ours, theirs) {
        case (.success(let mine), .success(let foundation)): #expect(mine == foundation)
        case (.failure(let error), .failure): #expect(error is EncodingError)
        default: Issue.record("depth \(depth): ours \(ours), Foundation \(theirs)")
        }
    }
}
