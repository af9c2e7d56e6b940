import JSON
import StatehouseTestClients

/// Seeded random draws shared by the test generators.
protocol SeededDrawing {
    var generator: SeededGenerator { get set }
}

extension SeededDrawing {
    mutating func int(_ range: Range<Int>) -> Int {
        Int.random(in: range, using: &generator)
    }

    mutating func chance(_ percent: Int) -> Bool {
        int(0..<100) < percent
    }
}

/// Random JSON values and random edits of them, for diff/apply property tests.
struct RandomJSON: SeededDrawing {
    var generator: SeededGenerator

    /// Keys include pointer-special characters and a numeric-looking key.
    private static let keys = ["a", "b", "c", "d", "", "0", "x/y", "m~n", "~1", "é"]
    private static let strings = ["", "s", "t", "x/y", "~0", "quote\"", "line\n", "😀"]
    private static let numbers = ["0", "1", "-1", "2", "1.5", "1e3", "100", "123456789012345678901"]

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    mutating func scalar() -> JSONValue {
        switch int(0..<5) {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2, 3: return .number(JSONNumber(text: Self.numbers[int(0..<Self.numbers.count)])!)
        default: return .string(Self.strings[int(0..<Self.strings.count)])
        }
    }

    mutating func key() -> String {
        Self.keys[int(0..<Self.keys.count)]
    }

    /// A value nested at most `depth` levels; arrays are occasionally long (up to 40 elements).
    mutating func value(depth: Int) -> JSONValue {
        if depth == 0 || chance(35) { return scalar() }
        if chance(50) {
            let count = chance(15) ? int(10..<40) : int(0..<6)
            return .array((0..<count).map { _ in value(depth: depth - 1) })
        }
        var object = JSONObject()
        for _ in 0..<int(0..<6) {
            object[key()] = value(depth: depth - 1)
        }
        return .object(object)
    }

    /// A copy of `original` with a few random edits at random depths (sometimes none).
    mutating func mutated(_ original: JSONValue, depth: Int) -> JSONValue {
        if chance(8) { return value(depth: depth) }
        switch original {
        case .array(var elements):
            for _ in 0..<int(0..<4) {
                editArray(&elements, depth: depth)
            }
            return .array(elements)
        case .object(var object):
            for _ in 0..<int(0..<4) {
                editObject(&object, depth: depth)
            }
            return .object(object)
        default:
            return chance(50) ? scalar() : original
        }
    }

    private mutating func editArray(_ elements: inout [JSONValue], depth: Int) {
        let operation = int(0..<6)
        if elements.isEmpty || operation == 0 {
            elements.insert(value(depth: depth - 1), at: int(0..<(elements.count + 1)))
        } else if operation == 1 {
            elements.remove(at: int(0..<elements.count))
        } else if operation == 2 {
            elements.append(value(depth: depth - 1))
        } else if operation == 3 {
            elements.removeLast(int(1..<(elements.count + 1)))
        } else {
            let index = int(0..<elements.count)
            elements[index] = mutated(elements[index], depth: depth - 1)
        }
    }

    private mutating func editObject(_ object: inout JSONObject, depth: Int) {
        let operation = int(0..<5)
        if object.isEmpty || operation == 0 {
            object[key()] = value(depth: depth - 1)
        } else if operation == 1 {
            object.removeValue(forKey: object.keys[int(0..<object.count)])
        } else if operation == 2 {
            object = JSONObject(object.reversed().map { ($0.key, $0.value) })
        } else {
            let key = object.keys[int(0..<object.count)]
            object[key] = mutated(object[key]!, depth: depth - 1)
        }
    }
}
