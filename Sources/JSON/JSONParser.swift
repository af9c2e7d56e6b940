/// An iterative RFC 8259 parser over contiguous UTF-8 bytes. Nesting lives on explicit stacks (`frames`, `values`,
/// `keys`), never on the call stack, so hostile nesting cannot overflow it; `maxDepth` bounds the stacks. The stacks
/// start in memory the caller lends (see `JSONValue.parse`), so small documents allocate only their own arrays.
struct JSONParser: ~Copyable {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    /// Whether a repeated member name is an error (else the object takes the last value).
    let rejectDuplicateKeys: Bool
    var position = 0
    /// Open containers, innermost last: `valueStart << 1`, plus 1 for an object. `valueStart` is where the
    /// container's elements begin on `values`; an object's keys are the same number of entries at the top of `keys`.
    private var frames: JSONParserStack<Int>
    private var values: JSONParserStack<JSONValue>
    private var keys: JSONParserStack<String>
    /// With `rejectDuplicateKeys`: the member names seen so far of each open object, by depth (an entry is dropped when
    /// its object closes). Compared as `String`s, as `JSONObject` stores them: names it would merge ("é" and
    /// "e\u{301}" are equal Swift strings) are refused as repeats rather than silently merged.
    private var namesByDepth: [Set<String>] = []

    init(
        bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, rejectDuplicateKeys: Bool = false,
        frames: UnsafeMutableBufferPointer<Int>, values: UnsafeMutableBufferPointer<JSONValue>,
        keys: UnsafeMutableBufferPointer<String>
    ) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.rejectDuplicateKeys = rejectDuplicateKeys
        self.frames = JSONParserStack(lending: frames)
        self.values = JSONParserStack(lending: values)
        self.keys = JSONParserStack(lending: keys)
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
            frames.append(values.count << 1 | (isArray ? 0 : 1))
            if !isArray { try parseMemberName() }
        }
    }

    /// After a value: handles `,` (returns false: a value must follow) or a closing bracket (returns true: the
    /// enclosing container became a value). Returns false at top level.
    private mutating func closeOrSeparate() throws(JSONParseError) -> Bool {
        guard !frames.isEmpty else { return false }
        let frame = frames.last
        skipWhitespace()
        guard position < bytes.count else { throw JSONParseError(offset: position, reason: .unexpectedEnd) }
        let byte = bytes[position]
        let valueStart = frame >> 1
        if frame & 1 == 0 {
            if byte == UInt8(ascii: ",") {
                position += 1
                return false
            }
            guard byte == UInt8(ascii: "]") else { throw JSONParseError(offset: position, reason: .unexpectedByte) }
            position += 1
            _ = frames.removeLast()
            values.append(.array(values.removeArray(from: valueStart)))
            return true
        }
        if byte == UInt8(ascii: ",") {
            position += 1
            try parseMemberName()
            return false
        }
        guard byte == UInt8(ascii: "}") else { throw JSONParseError(offset: position, reason: .unexpectedByte) }
        position += 1
        _ = frames.removeLast()
        // The object's names go with it: a later object at this depth may start where it started (after arrays).
        if rejectDuplicateKeys, namesByDepth.count > frames.count { namesByDepth.removeLast(namesByDepth.count - frames.count) }
        let memberValues = values.removeArray(from: valueStart)
        let memberKeys = keys.removeArray(from: keys.count - memberValues.count)
        values.append(.object(JSONObject(parsedKeys: memberKeys, values: memberValues)))
        return true
    }

    /// `"name" :` — pushes the name on `keys`.
    private mutating func parseMemberName() throws(JSONParseError) {
        skipWhitespace()
        guard position < bytes.count else { throw JSONParseError(offset: position, reason: .unexpectedEnd) }
        guard bytes[position] == UInt8(ascii: "\"") else {
            throw JSONParseError(offset: position, reason: .unexpectedByte)
        }
        let keyStart = position
        keys.append(try parseString())
        if rejectDuplicateKeys { try checkLastKeyIsNew(at: keyStart) }
        skipWhitespace()
        guard position < bytes.count else { throw JSONParseError(offset: position, reason: .unexpectedEnd) }
        guard bytes[position] == UInt8(ascii: ":") else {
            throw JSONParseError(offset: position, reason: .unexpectedByte)
        }
        position += 1
    }

    /// Throws `.duplicateKey` when the name just pushed on `keys` (its quote at `start`) repeats an earlier member
    /// name of the innermost object. One hash-set insert per name: linear in the object's size.
    private mutating func checkLastKeyIsNew(at start: Int) throws(JSONParseError) {
        let depth = frames.count - 1
        if namesByDepth.count > depth + 1 { namesByDepth.removeLast(namesByDepth.count - depth - 1) }
        while namesByDepth.count <= depth { namesByDepth.append([]) }
        if !namesByDepth[depth].insert(keys[keys.count - 1]).inserted {
            throw JSONParseError(offset: start, reason: .duplicateKey, pointer: memberPointer())
        }
    }

    /// The JSON Pointer of the member whose name is on top of `keys`: the child in progress of every open container,
    /// outermost first. A container's finished children are the values from its start to the next container's start
    /// (or the top); an object has one name on `keys` per finished member plus the one in progress.
    private func memberPointer() -> JSONPointer {
        var tokens: [String] = []
        var keyCursor = 0
        for depth in 0..<frames.count {
            let frame = frames[depth]
            let childrenEnd = depth + 1 < frames.count ? frames[depth + 1] >> 1 : values.count
            let children = childrenEnd - (frame >> 1)
            if frame & 1 == 1 {
                tokens.append(keys[keyCursor + children])
                keyCursor += children + 1
            } else {
                tokens.append(String(children))
            }
        }
        return JSONPointer(tokens: tokens)
    }

    /// Skips RFC 8259 §2 whitespace: space, tab, LF, CR.
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    mutating func skipWhitespace() {
        guard position < bytes.count, bytes[position] <= 0x20 else { return }
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }
}
