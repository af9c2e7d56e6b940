import Foundation
import JSONCoding
import Testing
import StatehouseTestClients

/// Random keyed containers compared with Foundation: keys with escapes, shared prefixes and repeats, more members
/// than the encoder's inline storage and its small-container sort, nested containers and nested values.
@Suite struct KeyOrderTests {
    @Test(arguments: [21, 22, 23, 24, 25] as [UInt64])
    func randomKeyedScriptsEncodeLikeFoundation(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<120 {
            let script = KeyScript.random(&rng, depth: 2)
            let ours = try JSONBytesEncoder().encode(script)
            let theirs = try Oracle.foundationEncode(script)
            #expect(Oracle.text(ours) == Oracle.text(theirs))
        }
    }

    @Test func largeOutputsGrowTheBuffer() throws {
        let long = String(repeating: "0123456789\"\\/\n", count: 800)
        let value = ["b": [long, long], "a": (0..<300).map { "item \($0)" }]
        #expect(try JSONBytesEncoder().encode(value) == Oracle.foundationEncode(value))
        let wide = Dictionary(uniqueKeysWithValues: (0..<200).map { ("key\($0 * 7919 % 200)", $0) })
        #expect(try JSONBytesEncoder().encode(wide) == Oracle.foundationEncode(wide))
    }
}

/// A keyed container written by a list of operations; scalar keys may repeat (the last value wins).
struct KeyScript: Encodable {
    indirect enum Operation {
        case int(String, Int)
        case small(String, Int8, UInt16)
        case text(String, String)
        case flag(String, Bool?)
        case number(String, Double)
        case list(String, [Int64])
        case nested(String, KeyScript)
        case value(String, KeyScript)
    }

    struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    var operations: [Operation]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        try write(into: &container)
    }

    private func write(into container: inout KeyedEncodingContainer<AnyKey>) throws {
        for operation in operations {
            switch operation {
            case .int(let key, let value): try container.encode(value, forKey: AnyKey(key))
            case .small(let key, let signed, let unsigned):
                if signed < 0 {
                    try container.encode(signed, forKey: AnyKey(key))
                } else {
                    try container.encode(unsigned, forKey: AnyKey(key))
                }
            case .text(let key, let value): try container.encode(value, forKey: AnyKey(key))
            case .flag(let key, let value):
                if let value {
                    try container.encode(value, forKey: AnyKey(key))
                } else {
                    try container.encodeNil(forKey: AnyKey(key))
                }
            case .number(let key, let value): try container.encode(value, forKey: AnyKey(key))
            case .list(let key, let values): try container.encode(values, forKey: AnyKey(key))
            case .nested(let key, let script):
                var nested = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(key))
                try script.write(into: &nested)
            case .value(let key, let script): try container.encode(script, forKey: AnyKey(key))
            }
        }
    }

    /// Key pieces: escapes, multi-byte UTF-8 and long shared prefixes (never `#`, which marks unique keys).
    static let pieces = ["a", "b", "B", "_", "0", "9", "\"", "\\", "\n", "\u{1}", "é", "😀", "longprefix", "~"]

    static func random<G: RandomNumberGenerator>(_ rng: inout G, depth: Int) -> KeyScript {
        var operations: [Operation] = []
        let count = [0, 1, 2, 3, 5, 8, 17, 30][Int.random(in: 0..<8, using: &rng)]
        for index in 0..<count {
            let key = (0..<Int.random(in: 0...3, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            switch Int.random(in: 0..<(depth > 0 ? 9 : 7), using: &rng) {
            case 0: operations.append(.int(key, Int.random(in: Int.min...Int.max, using: &rng)))
            case 1:
                let signed = Int8.random(in: .min ... .max, using: &rng)
                operations.append(.small(key, signed, UInt16.random(in: 0 ... .max, using: &rng)))
            case 2: operations.append(.text(key, Random.string(&rng)))
            case 3: operations.append(.flag(key, [true, false, nil][Int.random(in: 0..<3, using: &rng)]))
            case 4: operations.append(.number(key, Random.double(&rng)))
            case 5, 6:
                let length = Int.random(in: 0...3, using: &rng)
                operations.append(.list(key, (0..<length).map { _ in Int64.random(in: -99...99, using: &rng) }))
            case 7: operations.append(.nested("#\(index)" + key, random(&rng, depth: depth - 1)))
            default: operations.append(.value("#\(index)" + key, random(&rng, depth: depth - 1)))
            }
        }
        return KeyScript(operations: operations)
    }
}
