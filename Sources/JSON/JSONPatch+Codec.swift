extension JSONPatch {
    /// The RFC 6902 §3 document for `ops`: a compact UTF-8 JSON array of operation objects with members in the order
    /// `op`, `from` (move/copy), `path`, `value` (add/replace/test), e.g.
    /// `[{"op":"replace","path":"/count","value":3}]`. `[]` for no operations.
    public static func serialize(_ ops: [JSONPatchOperation]) -> [UInt8] {
        var output: [UInt8] = [UInt8(ascii: "[")]
        for (position, operation) in ops.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: #"{"op":""#.utf8)
            output.append(contentsOf: operation.name.utf8)
            output.append(UInt8(ascii: "\""))
            switch operation {
            case .move(let from, _), .copy(let from, _):
                output.append(contentsOf: #","from":"#.utf8)
                JSONValue.writeString(from.description, into: &output)
            default:
                break
            }
            output.append(contentsOf: #","path":"#.utf8)
            JSONValue.writeString(operation.path.description, into: &output)
            switch operation {
            case .add(_, let value), .replace(_, let value), .test(_, let value):
                output.append(contentsOf: #","value":"#.utf8)
                value.write(into: &output)
            default:
                break
            }
            output.append(UInt8(ascii: "}"))
        }
        output.append(UInt8(ascii: "]"))
        return output
    }

    /// Parses an RFC 6902 §3 patch document: a JSON array of objects with `op`, `path`, and `from` / `value` as the
    /// operation requires. Unknown members are ignored (§4); a `null` value is a value.
    /// - Throws: `JSONParseError` when the bytes are not JSON; `JSONPatchError` with reason `.malformedOperation`
    ///   (and the operation's index) for a non-array document, a non-object element, an unknown `op`, or a missing,
    ///   non-string or invalid (RFC 6901) `path`/`from`, or a missing `value`.
    public static func parse(_ bytes: some Collection<UInt8>) throws -> [JSONPatchOperation] {
        try parse(try JSONValue(parsing: bytes))
    }

    /// Reads an RFC 6902 §3 patch document already parsed (e.g. the `ops` of a stream message).
    /// - Throws: `JSONPatchError` with reason `.malformedOperation` as the bytes form of `parse` describes.
    public static func parse(_ document: JSONValue) throws(JSONPatchError) -> [JSONPatchOperation] {
        guard case .array(let elements) = document else {
            throw JSONPatchError(operationIndex: 0, pointer: "", reason: .malformedOperation("patch is not an array"))
        }
        var operations: [JSONPatchOperation] = []
        operations.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            operations.append(try parseOperation(element, index: index))
        }
        return operations
    }

    private static func parseOperation(_ element: JSONValue, index: Int) throws(JSONPatchError) -> JSONPatchOperation {
        func malformed(_ why: String) -> JSONPatchError {
            JSONPatchError(operationIndex: index, pointer: "", reason: .malformedOperation(why))
        }
        guard case .object(let object) = element else { throw malformed("operation is not an object") }
        func pointer(_ member: String) throws(JSONPatchError) -> JSONPointer {
            guard case .string(let text) = object[member] else { throw malformed("missing string member \(member)") }
            do throws(JSONPointerError) {
                return try JSONPointer(text)
            } catch {
                throw malformed("invalid pointer in \(member)")
            }
        }
        func value() throws(JSONPatchError) -> JSONValue {
            guard let value = object["value"] else { throw malformed("missing member value") }
            return value
        }
        guard case .string(let name) = object["op"] else { throw malformed("missing string member op") }
        switch name {
        case "add": return .add(path: try pointer("path"), value: try value())
        case "remove": return .remove(path: try pointer("path"))
        case "replace": return .replace(path: try pointer("path"), value: try value())
        case "move": return .move(from: try pointer("from"), path: try pointer("path"))
        case "copy": return .copy(from: try pointer("from"), path: try pointer("path"))
        case "test": return .test(path: try pointer("path"), value: try value())
        default: throw malformed("unknown op \(name)")
        }
    }
}
