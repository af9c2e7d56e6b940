extension JSONValue {
    /// The value `pointer` refers to (RFC 6901 §4), or nil when it does not resolve: a missing member, an index that
    /// is not a valid array index (leading zeros, `-`, out of range) or a token applied to a scalar.
    public subscript(pointer pointer: JSONPointer) -> JSONValue? {
        var current = self
        for token in pointer.tokens {
            switch current {
            case .object(let object):
                guard let member = object[token] else { return nil }
                current = member
            case .array(let elements):
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}
