@testable import JSON

/// The parser as it was before its stacks moved to stack memory and its strings got an ASCII fast path, kept as the
/// oracle for `ParserDifferentialTests` (same results, same error offsets and reasons).
struct ReferenceJSONParser {
    /// An open array or object: where its elements (and keys) start on the shared stacks.
    private enum Frame {
        case array(valueStart: Int)
        case object(valueStart: Int, keyStart: Int)
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var position = 0
    private var frames: [Frame] = []
    private var values: [JSONValue] = []
    private var keys: [String] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Parses exactly one value surrounded by optional whitespace.
    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        while true {
            try parseValueStart()
            while try closeOrSeparate() {}
            if frames.isEmpty { break }
        }
        skipWhitespace()
        guard position == bytes.count else { throw JSONParseError(offset: position, reason: .trailingData) }
        return values.removeLast()
    }

    /// Reads one scalar (pushed on `values`) or an empty container, opening any containers met on the way (a loop,
    /// not recursion: `[[[[1` pushes four frames, then the scalar).
    private mutating func parseValueStart() throws(JSONParseError) {
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw JSONParseError(offset: position, reason: .unexpectedEnd) }
            let byte = bytes[position]
            guard byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") else {
                values.append(try parseScalar())
                return
            }
            guard frames.count < maxDepth else { throw JSONParseError(offset: position, reason: .tooDeep) }
            position += 1
            skipWhitespace()
            let isArray = byte == UInt8(ascii: "[")
            if position < bytes.count, bytes[position] == (isArray ? UInt8(ascii: "]") : UInt8(ascii: "}")) {
                position += 1
                values.append(isArray ? .array([]) : .object(JSONObject()))
                return
            }
            if isArray {
                frames.append(.array(valueStart: values.count))
            } else {
                frames.append(.object(valueStart: values.count, keyStart: keys.count))
                try parseMemberName()
            }
        }
    }

    /// After a value: handles `,` (returns false: a value must follow) or a closing bracket (returns true: the
    /// enclosing container became a value). Returns false at top level.
    private mutating func closeOrSeparate() throws(JSONParseError) -> Bool {
        guard let frame = frames.last else { return false }
        skipWhitespace()
        guard position < bytes.count else { throw JSONParseError(offset: position, reason: .unexpectedEnd) }
        let byte = bytes[position]
        switch frame {
        case .array(let valueStart):
            if byte == UInt8(ascii: ",") {
                position += 1
                return false
            }
            guard byte == UInt8(ascii: "]") else { throw JSONParseError(offset: position, reason: .unexpectedByte) }
            position += 1
            let elements = Array(values[valueStart...])
            values.removeSubrange(valueStart...)
            frames.removeLast()
            values.append(.array(elements))
            return true
        case .object(let valueStart, let keyStart):
            if byte == UInt8(ascii: ",") {
                position += 1
                try parseMemberName()
                return false
            }
            guard byte == UInt8(ascii: "}") else { throw JSONParseError(offset: position, reason: .unexpectedByte) }
            position += 1
            let object = JSONObject(zip(keys[keyStart...], values[valueStart...]))  // first position, last value
            values.removeSubrange(valueStart...)
            keys.removeSubrange(keyStart...)
            frames.removeLast()
            values.append(.object(object))
            return true
        }
    }

    /// `"name" :` — pushes the name on `keys`.
    private mutating func parseMemberName() throws(JSONParseError) {
        skipWhitespace()
        guard position < bytes.count else { throw JSONParseError(offset: position, reason: .unexpectedEnd) }
        guard bytes[position] == UInt8(ascii: "\"") else {
            throw JSONParseError(offset: position, reason: .unexpectedByte)
        }
        keys.append(try parseString())
        skipWhitespace()
        guard position < bytes.count else { throw JSONParseError(offset: position, reason: .unexpectedEnd) }
        guard bytes[position] == UInt8(ascii: ":") else {
            throw JSONParseError(offset: position, reason: .unexpectedByte)
        }
        position += 1
    }

    /// Parses `bytes` as `JSONValue(parsing:maxDepth:)` did.
    static func parse(_ bytes: [UInt8], maxDepth: Int = 512) -> Result<JSONValue, JSONParseError> {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = ReferenceJSONParser(bytes: buffer, maxDepth: maxDepth)
            do throws(JSONParseError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }
}
