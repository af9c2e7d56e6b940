extension JSONValue {
    /// Parses one JSON text (RFC 8259 §2): a value with optional surrounding whitespace, UTF-8 encoded.
    ///
    /// The parser is iterative (nesting is kept on explicit stacks), so hostile input cannot overflow the call stack.
    /// Duplicate object keys: the member keeps its first position and takes the last value, unless
    /// `rejectingDuplicateKeys`. `\u` escapes of lone
    /// surrogates are rejected (`.loneSurrogate`), never replaced. A leading byte-order mark is not accepted.
    /// Numbers keep their text, so `1e400` parses (as text `1e400`) rather than failing or becoming infinity.
    /// - Parameters:
    ///   - bytes: the UTF-8 text; contiguous collections (`[UInt8]`, `ArraySlice`, `Data`) are read in place.
    ///   - maxDepth: the most arrays/objects that may be open at once (≥ 0; 0 allows only scalars).
    ///   - rejectingDuplicateKeys: when true, a member name repeated within one object is an error
    ///     (`.duplicateKey`, at the repeated name's opening quote, with its JSON Pointer), names compared as `String`s
    ///     (as ``JSONObject`` stores them), one set insert per name. Meant for configuration files.
    /// - Throws: `JSONParseError` with the byte offset and reason of the first problem.
    public init(
        parsing bytes: some Collection<UInt8>, maxDepth: Int = 512, rejectingDuplicateKeys: Bool = false
    ) throws(JSONParseError) {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Self.parse(buffer, maxDepth: maxDepth, rejectingDuplicateKeys: rejectingDuplicateKeys)
        }
        if let result {
            self = try result.get()
        } else {
            let copy = Array(bytes)
            self = try copy.withUnsafeBufferPointer {
                Self.parse($0, maxDepth: maxDepth, rejectingDuplicateKeys: rejectingDuplicateKeys)
            }.get()
        }
    }

    /// Parses the UTF-8 bytes of `text`; see `init(parsing:maxDepth:rejectingDuplicateKeys:)`.
    /// - Throws: `JSONParseError`.
    public init(parsing text: String, maxDepth: Int = 512, rejectingDuplicateKeys: Bool = false) throws(JSONParseError) {
        var text = text
        self = try text.withUTF8 {
            Self.parse($0, maxDepth: maxDepth, rejectingDuplicateKeys: rejectingDuplicateKeys)
        }.get()
    }

    /// Runs the parser with its stacks in stack memory: 32 open containers, 32 pending values and 32 pending keys
    /// (the stacks move to the heap past that).
    private static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int, rejectingDuplicateKeys: Bool
    ) -> Result<JSONValue, JSONParseError> {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 32) { frames in
            withUnsafeTemporaryAllocation(of: JSONValue.self, capacity: 32) { values in
                withUnsafeTemporaryAllocation(of: String.self, capacity: 32) { keys in
                    var parser = JSONParser(
                        bytes: buffer, maxDepth: maxDepth, rejectDuplicateKeys: rejectingDuplicateKeys, frames: frames,
                        values: values, keys: keys)
                    do throws(JSONParseError) {
                        return .success(try parser.parseDocument())
                    } catch {
                        return .failure(error)
                    }
                }
            }
        }
    }
}
