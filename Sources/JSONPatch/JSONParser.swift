/// An iterative RFC 8259 parser over contiguous UTF-8 bytes. Nesting lives on heap stacks (`frames`, `values`,
/// `keys`), never on the call stack, so hostile nesting cannot overflow it; `maxDepth` bounds the heap stacks.
struct JSONParser {
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
            let object = JSONObject(keys: keys[keyStart...], values: values[valueStart...])
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

    /// Skips RFC 8259 §2 whitespace: space, tab, LF, CR.
    @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }
}
