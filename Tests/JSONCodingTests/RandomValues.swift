import Foundation
import JSON

/// A recursive Codable value covering every container shape the coders support.
indirect enum Tree: Codable, Equatable {
    case leaf
    case int(Int)
    case small(Int8, UInt16)
    case double(Double)
    case float(Float)
    case text(String)
    case flag(Bool?)
    case list([Tree])
    case map([String: Tree])
    case keyed([Int: Tree])
    case pair(left: Tree, right: Tree?)
    case color(Color)
}

enum Random {
    /// Characters that exercise escaping, multi-byte UTF-8 and key ordering.
    static let pieces: [String] = [
        "a", "b", "Z", "_", "0", "9", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "e\u{301}",
        "😀", "\u{2028}", "中", "~", "{", "]",
    ]

    static func string<G: RandomNumberGenerator>(_ rng: inout G) -> String {
        let count = Int.random(in: 0...6, using: &rng)
        return (0..<count).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    static func double<G: RandomNumberGenerator>(_ rng: inout G) -> Double {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0:
            let bits = Double(bitPattern: rng.next())
            return bits.isFinite ? bits : 0.5
        case 1: return Double(Int.random(in: -1_000_000...1_000_000, using: &rng))
        case 2:
            return Double(Int.random(in: -99_999...99_999, using: &rng)) / pow(10, Double(Int.random(in: 0...8, using: &rng)))
        case 3: return pow(10, Double(Int.random(in: -30...30, using: &rng)))
        case 4: return Double(Int64.random(in: -(1 << 54)...(1 << 54), using: &rng))
        default: return [0, -0.0, 1e15, 1e16, 9007199254740992, 0.1, 1e-7][Int.random(in: 0..<7, using: &rng)]
        }
    }

    static func float<G: RandomNumberGenerator>(_ rng: inout G) -> Float {
        let value = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
        if Bool.random(using: &rng) { return value.isFinite ? value : 1 }
        let narrowed = Float(double(&rng))
        return narrowed.isFinite ? narrowed : 2
    }

    static func tree<G: RandomNumberGenerator>(_ rng: inout G, depth: Int) -> Tree {
        let choice = Int.random(in: 0..<(depth > 0 ? 12 : 8), using: &rng)
        switch choice {
        case 0: return .leaf
        case 1: return .int(Int.random(in: Int.min...Int.max, using: &rng))
        case 2: return .small(Int8.random(in: .min ... .max, using: &rng), UInt16.random(in: 0 ... .max, using: &rng))
        case 3: return .double(double(&rng))
        case 4: return .float(float(&rng))
        case 5: return .text(string(&rng))
        case 6: return .flag([true, false, nil][Int.random(in: 0..<3, using: &rng)])
        case 7: return .color([Color.red, .green, .darkBlue][Int.random(in: 0..<3, using: &rng)])
        case 8: return .list((0..<Int.random(in: 0...4, using: &rng)).map { _ in tree(&rng, depth: depth - 1) })
        case 9:
            var map: [String: Tree] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &rng) { map[string(&rng)] = tree(&rng, depth: depth - 1) }
            return .map(map)
        case 10:
            var map: [Int: Tree] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                map[Int.random(in: -20...20, using: &rng)] = tree(&rng, depth: depth - 1)
            }
            return .keyed(map)
        default:
            return .pair(left: tree(&rng, depth: depth - 1), right: Bool.random(using: &rng) ? nil : tree(&rng, depth: depth - 1))
        }
    }

    /// Keys that the decoding targets use, so random objects sometimes decode and sometimes fail deep inside.
    static let keys = ["x", "y", "tags", "child", "add", "amount", "increment", "rename", "_0", "reason", "move", "batch"]

    static let numberTexts = [
        "0", "-0", "1", "-1", "1.0", "1.5", "1e2", "2E-1", "300", "-129", "9223372036854775808", "1e400", "0.1",
        "123456789012345678901234567890", "-0.0", "9007199254740993.0", "65535", "4294967296", "1e-400",
    ]

    /// Random JSON shaped like the decoding targets.
    static func json<G: RandomNumberGenerator>(_ rng: inout G, depth: Int) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 9 : 6), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2, 3: return .number(JSONNumber(text: numberTexts.randomElement(using: &rng)!)!)
        case 4: return .string(["", "x", "1", "red", "AQID"].randomElement(using: &rng)!)
        case 5: return .number(JSONNumber(Int.random(in: -5...5, using: &rng)))
        case 6: return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in json(&rng, depth: depth - 1) })
        default:
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                object[keys.randomElement(using: &rng)!] = json(&rng, depth: depth - 1)
            }
            return .object(object)
        }
    }
}

/// A decoding target for random JSON: synthesized keyed decoding with optionals and nested enums.
struct Shape: Codable, Equatable {
    var x: Int
    var y: Double?
    var tags: [String]?
    var child: Action?
}
