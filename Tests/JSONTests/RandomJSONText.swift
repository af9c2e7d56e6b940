import StatehouseTestClients

/// Random JSON texts as bytes, mostly valid, for differential parser tests: random whitespace, escapes (including
/// surrogate pairs and lone surrogates), non-ASCII and invalid UTF-8, short and long strings, numbers on and off the
/// grammar, repeated keys, wide containers and deep nesting (past the parser's in-place stack sizes).
struct RandomJSONText: SeededDrawing {
    var generator: SeededGenerator
    private(set) var bytes: [UInt8] = []

    private static let keys = ["type", "a", "b", "seq", "", "é", "x\\\"y", "action", "payloadpayloadpayload"]
    private static let pieces: [String] = [
        "a", "type", "increment", "0123456789abcdef", " ", "é", "😀", "\\n", "\\\"", "\\\\", "\\/", "\\u0041",
        "\\u00e9", "\\ud83d\\ude00", "\\ud800", "\\udc00", "\\ud83dx", "\\x", "\\u12G4", "\u{1}", "\t", "~", "\u{7F}",
    ]
    private static let numbers = [
        "0", "-0", "12345", "987654321012", "1.5", "-1.25e+10", "1e400", "1E-7", "0.0", "01", "-", "1.", "1e",
        "+1", ".5", "123456789012345678901234567890", "-12",
    ]
    private static let strayBytes: [UInt8] = [0x80, 0xC3, 0xED, 0xFF, 0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x00]

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    /// A fresh document: one value between random whitespace, then (sometimes) a random edit.
    mutating func document() -> [UInt8] {
        bytes = []
        whitespace()
        value(depth: chance(5) ? 70 : 4)
        whitespace()
        if chance(30) { mutate() }
        return bytes
    }

    private mutating func emit(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func whitespace() {
        for _ in 0..<(chance(70) ? 0 : int(1..<4)) {
            bytes.append([0x20, 0x09, 0x0A, 0x0D][int(0..<4)])
        }
    }

    private mutating func value(depth: Int) {
        if depth > 4 {  // a deep chain: one container per level
            let isArray = chance(50)
            emit(isArray ? "[" : "{\"k\":")
            value(depth: depth - 1)
            emit(isArray ? "]" : "}")
            return
        }
        guard depth > 0, chance(60) else { return scalar() }
        let count = depth <= 2 && chance(10) ? int(30..<80) : int(0..<5)
        let isArray = chance(50)
        emit(isArray ? "[" : "{")
        for index in 0..<count {
            if index > 0 { whitespace(); emit(","); whitespace() }
            if !isArray {
                emit("\"" + Self.keys[int(0..<Self.keys.count)] + (count > 8 && chance(70) ? "\(index)" : "") + "\"")
                whitespace(); emit(":"); whitespace()
            }
            value(depth: depth - 1)
        }
        whitespace()
        emit(isArray ? "]" : "}")
    }

    private mutating func scalar() {
        switch int(0..<8) {
        case 0: emit(["null", "true", "false", "nul", "tru"][chance(98) ? int(0..<3) : int(3..<5)])
        case 1, 2: emit(Self.numbers[chance(97) ? int(0..<9) : int(0..<Self.numbers.count)])
        default: string()
        }
    }

    /// A string; one in 25 may hold bad escapes, control bytes or ill-formed UTF-8.
    private mutating func string() {
        let dirty = chance(4)
        emit("\"")
        for _ in 0..<(chance(30) ? int(0..<3) : int(3..<12)) {
            if !dirty || chance(80) {
                emit(chance(90) ? Self.pieces[int(0..<13)] : String(UnicodeScalar(UInt8(int(0x20..<0x7F)))))
            } else if chance(50) {
                emit(Self.pieces[int(13..<Self.pieces.count)])
            } else {
                bytes.append(Self.strayBytes[int(0..<Self.strayBytes.count)])
            }
        }
        emit("\"")
    }

    /// Truncates, deletes, replaces or inserts a byte at a random place.
    private mutating func mutate() {
        guard !bytes.isEmpty else { return }
        let position = int(0..<bytes.count)
        let stray = chance(50) ? Self.strayBytes[int(0..<Self.strayBytes.count)] : UInt8(int(0..<256))
        switch int(0..<4) {
        case 0: bytes.removeSubrange(position...)
        case 1: bytes.remove(at: position)
        case 2: bytes[position] = stray
        default: bytes.insert(stray, at: position)
        }
    }
}
