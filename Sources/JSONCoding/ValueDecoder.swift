import JSON

/// The `Decoder` that `JSONValueDecoder` hands to `init(from:)`: reads a parsed `JSONValue` tree in place.
///
/// One instance serves a whole decode: decoding a nested value swaps `current` and pushes its key on `path`
/// instead of allocating a new decoder, and coding paths are materialized only for errors or when asked for.
/// The decoder is also its own single-value container.
///
/// ## Thread safety
/// Confined to the thread running one decode call; never shared.
final class ValueDecoder: Decoder {
    /// The value the innermost open `init(from:)` is decoding.
    /// (Confined to one thread and never accessed overlapping, so without dynamic exclusivity checks: issue 14,
    /// callgrind, they would cost 76 instructions per `container(keyedBy:)` of every decoded action.)
    @exclusivity(unchecked) var current: JSONValue
    /// Coding path steps of the open `init(from:)` frames, outermost first.
    @exclusivity(unchecked) var path: [PathKey]

    init(value: JSONValue, path: [PathKey] = []) {
        current = value
        self.path = path
    }

    var codingPath: [any CodingKey] { path.map(\.codingKey) }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The position of the innermost frame (for containers created from it).
    var framePosition: PathPosition { PathPosition(depth: path.count) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if case .object(let object) = current {
            let container = KeyedValueContainer<Key>(decoder: self, object: object, position: framePosition)
            return KeyedDecodingContainer(container)
        }
        return try keyedContainer(for: current, at: framePosition, keyedBy: Key.self)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try unkeyedContainer(for: current, at: framePosition)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    /// A keyed container over `value` (must be an object) located at `position`.
    /// - Throws: `DecodingError.valueNotFound` for null, `.typeMismatch` for any other non-object.
    func keyedContainer<Key: CodingKey>(
        for value: JSONValue, at position: PathPosition, keyedBy type: Key.Type
    ) throws -> KeyedDecodingContainer<Key> {
        switch value {
        case .object(let object):
            return KeyedDecodingContainer(KeyedValueContainer<Key>(decoder: self, object: object, position: position))
        case .null:
            throw valueNotFound(
                [String: Any].self, at: position, nil,
                "Cannot get keyed decoding container -- found null value instead")
        default:
            throw typeMismatch([String: Any].self, found: value, at: position, nil)
        }
    }

    /// An unkeyed container over `value` (must be an array) located at `position`.
    /// - Throws: `DecodingError.valueNotFound` for null, `.typeMismatch` for any other non-array.
    func unkeyedContainer(for value: JSONValue, at position: PathPosition) throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let elements):
            return UnkeyedValueContainer(decoder: self, elements: elements, position: position)
        case .null:
            throw valueNotFound(
                [Any].self, at: position, nil, "Cannot get unkeyed decoding container -- found null value instead")
        default:
            throw typeMismatch([Any].self, found: value, at: position, nil)
        }
    }

    /// Decodes `T` from `value`, which sits at `position` followed by `key`. Scalars, arrays of scalars, `Data`,
    /// `URL` and `Decimal` are converted directly; any other type runs its `init(from:)` on this decoder in a new frame.
    func unwrap<T: Decodable>(
        _ value: JSONValue, as type: T.Type, at position: PathPosition, _ key: @autoclosure () -> PathKey?
    ) throws -> T {
        if let kind = DirectKind.of(T.self) {
            return try decodeDirectly(kind, value, as: T.self, at: position, key())
        }
        let savedValue = current
        let savedCount = path.count
        position.pushSteps(onto: &path)
        if let key = key() { path.append(key) }
        current = value
        defer {
            current = savedValue
            path.truncate(to: savedCount)
        }
        return try T(from: self)
    }

    /// Decodes `T` from `current` with an empty path: as `unwrap`, but the root frame needs nothing saved.
    func decodeRoot<T: Decodable>(_ type: T.Type) throws -> T {
        if let kind = DirectKind.of(T.self) {
            return try decodeDirectly(kind, current, as: T.self, at: PathPosition(depth: 0), nil)
        }
        return try T(from: self)
    }

    /// A separate decoder for `value` at `position` + `key`, for `superDecoder()`: it may outlive this frame.
    func detachedDecoder(for value: JSONValue, at position: PathPosition, _ key: PathKey) -> ValueDecoder {
        var steps = Array(path.prefix(position.depth))
        position.pushSteps(onto: &steps)
        steps.append(key)
        return ValueDecoder(value: value, path: steps)
    }
}
