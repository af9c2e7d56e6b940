/// In-place edits at JSON Pointer locations, for `JSONPatch.apply`. Containers are taken out of `self` before
/// being edited so their storage stays uniquely referenced (no copy-on-write copies along the path).
/// Errors carry operation index 0; the caller fills in the real index.
extension JSONValue {
    /// Runs `body` on the existing value at `tokens`.
    mutating func modifyValue<R>(
        at tokens: ArraySlice<String>, _ body: (inout JSONValue) throws(JSONPatchError) -> R
    ) throws(JSONPatchError) -> R {
        guard let token = tokens.first else { return try body(&self) }
        let rest = tokens.dropFirst()
        switch self {
        case .object(var object):
            guard let position = object.position(of: token) else { throw Self.failure(tokens, .pathNotFound) }
            self = .null
            defer { self = .object(object) }
            return try object.withValue(at: position) { (value) throws(JSONPatchError) in
                try value.modifyValue(at: rest, body)
            }
        case .array(var elements):
            guard let index = JSONPointer.arrayIndex(token) else { throw Self.failure(tokens, .invalidArrayIndex) }
            guard index < elements.count else { throw Self.failure(tokens, .pathNotFound) }
            self = .null
            defer { self = .array(elements) }
            return try elements[index].modifyValue(at: rest, body)
        default:
            throw Self.failure(tokens, .notAContainer)
        }
    }

    /// RFC 6902 §4.1 `add` at `path`.
    mutating func add(_ value: JSONValue, at path: JSONPointer) throws(JSONPatchError) {
        guard let last = path.tokens.last else {
            self = value
            return
        }
        try modifyValue(at: path.tokens.dropLast()[...]) { (parent) throws(JSONPatchError) in
            switch parent {
            case .object(var object):
                parent = .null
                object[last] = value
                parent = .object(object)
            case .array(var elements):
                let index: Int
                if last == "-" {
                    index = elements.count
                } else {
                    guard let parsed = JSONPointer.arrayIndex(last), parsed <= elements.count else {
                        throw Self.failure([last], .invalidArrayIndex)
                    }
                    index = parsed
                }
                parent = .null
                elements.insert(value, at: index)
                parent = .array(elements)
            default:
                throw Self.failure([last], .notAContainer)
            }
        }
    }

    /// RFC 6902 §4.2 `remove` at `path`; returns the removed value.
    mutating func remove(at path: JSONPointer) throws(JSONPatchError) -> JSONValue {
        guard let last = path.tokens.last else { throw Self.failure([], .cannotRemoveRoot) }
        return try modifyValue(at: path.tokens.dropLast()[...]) { (parent) throws(JSONPatchError) -> JSONValue in
            switch parent {
            case .object(var object):
                parent = .null
                defer { parent = .object(object) }
                guard let removed = object.removeValue(forKey: last) else {
                    throw Self.failure([last], .pathNotFound)
                }
                return removed
            case .array(var elements):
                guard let index = JSONPointer.arrayIndex(last) else { throw Self.failure([last], .invalidArrayIndex) }
                guard index < elements.count else { throw Self.failure([last], .pathNotFound) }
                parent = .null
                defer { parent = .array(elements) }
                return elements.remove(at: index)
            default:
                throw Self.failure([last], .notAContainer)
            }
        }
    }

    private static func failure(_ tokens: ArraySlice<String>, _ reason: JSONPatchError.Reason) -> JSONPatchError {
        JSONPatchError(operationIndex: 0, pointer: JSONPointer(tokens: Array(tokens)).description, reason: reason)
    }
}
