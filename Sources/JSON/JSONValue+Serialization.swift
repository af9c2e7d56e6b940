extension JSONValue {
    /// Compact UTF-8 JSON text (RFC 8259): no whitespace, numbers as their stored text, strings escaped by
    /// `writeString(_:into:)`.
    /// - Parameter sortedKeys: when true, object members are written in ascending key order by UTF-8 bytes (which is
    ///   Unicode code point order); otherwise in member order.
    /// - Returns: the encoded bytes.
    public func serialized(sortedKeys: Bool = false) -> [UInt8] {
        var output: [UInt8] = []
        write(into: &output, sortedKeys: sortedKeys)
        return output
    }

    /// Appends the compact encoding of this value to `output`; see `serialized(sortedKeys:)`.
    /// Recurses once per nesting level (values from the parser are at most `maxDepth` deep).
    public func write(into output: inout [UInt8], sortedKeys: Bool = false) {
        switch self {
        case .null:
            output.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])  // null
        case .bool(let bool):
            if bool {
                output.append(contentsOf: [0x74, 0x72, 0x75, 0x65])  // true
            } else {
                output.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])  // false
            }
        case .number(let number):
            output.append(contentsOf: number.text.utf8)
        case .string(let string):
            Self.writeString(string, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                element.write(into: &output, sortedKeys: sortedKeys)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            if sortedKeys {
                let order = object.keys.indices.sorted {
                    object.keys[$0].utf8.lexicographicallyPrecedes(object.keys[$1].utf8)
                }
                for (written, position) in order.enumerated() {
                    Self.writeMember(of: object, at: position, first: written == 0, into: &output, sortedKeys: true)
                }
            } else {
                for position in object.keys.indices {
                    Self.writeMember(of: object, at: position, first: position == 0, into: &output, sortedKeys: false)
                }
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeMember(
        of object: JSONObject, at position: Int, first: Bool, into output: inout [UInt8], sortedKeys: Bool
    ) {
        if !first { output.append(UInt8(ascii: ",")) }
        writeString(object.keys[position], into: &output)
        output.append(UInt8(ascii: ":"))
        object.values[position].write(into: &output, sortedKeys: sortedKeys)
    }

    /// Appends `string` as a JSON string literal with its quotes (RFC 8259 §7): `"` and `\` backslash-escaped,
    /// U+0008, U+0009, U+000A, U+000C, U+000D as `\b \t \n \f \r`, the other controls U+0000–U+001F as `\u00xx`
    /// (lowercase hex), everything else as raw UTF-8 (the escapes of RFC 8785 §3.2.2.2; the package's one escaper,
    /// which states are encoded with too).
    public static func writeString(_ string: String, into output: inout [UInt8]) {
        JSONStringEscaper.write(string, into: &output)
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text, members in order.
    public var description: String {
        String(decoding: serialized(), as: UTF8.self)
    }
}
