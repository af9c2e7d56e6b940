import JSON

/// `DecodingError` construction with Foundation's error kinds; paths are materialized here, only on failure.
extension ValueDecoder {
    /// `.typeMismatch`: `value` is not a `type`.
    func typeMismatch(_ type: Any.Type, found value: JSONValue, at position: PathPosition, _ key: PathKey?)
        -> DecodingError
    {
        DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: position.codingPath(in: path, then: key),
                debugDescription: "Expected to decode \(type) but found \(Self.describe(value)) instead."))
    }

    /// `.valueNotFound`: null (or the end of an unkeyed container) where a `type` was required.
    func valueNotFound(
        _ type: Any.Type, at position: PathPosition, _ key: PathKey?, _ description: String? = nil
    ) -> DecodingError {
        DecodingError.valueNotFound(
            type,
            DecodingError.Context(
                codingPath: position.codingPath(in: path, then: key),
                debugDescription: description ?? "Cannot get value of type \(type) -- found null value instead"))
    }

    /// `.dataCorrupted`: the value has the right JSON type but cannot become the Swift value.
    func dataCorrupted(_ description: String, at position: PathPosition, _ key: PathKey?) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: position.codingPath(in: path, then: key), debugDescription: description))
    }

    /// `.keyNotFound` for `key` in the container at `position`.
    func keyNotFound(_ key: any CodingKey, at position: PathPosition) -> DecodingError {
        DecodingError.keyNotFound(
            key,
            DecodingError.Context(
                codingPath: position.codingPath(in: path),
                debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }

    /// "null", "a number", … for error messages.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "bool"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "a dictionary"
        }
    }
}
