import JSON

/// Unkeyed decoding over a JSON array, element by element.
///
/// A failed decode leaves `currentIndex` unchanged; decoding past the end throws `valueNotFound`.
/// Like Foundation, `decodeIfPresent` at the end returns nil and still advances `currentIndex`.
///
/// ## Thread safety
/// Confined to the decode call that created it.
struct UnkeyedValueContainer: UnkeyedDecodingContainer {
    let decoder: ValueDecoder
    let elements: [JSONValue]
    let position: PathPosition
    /// The index of the next element to decode (0-based).
    private(set) var currentIndex = 0

    init(decoder: ValueDecoder, elements: [JSONValue], position: PathPosition) {
        self.decoder = decoder
        self.elements = elements
        self.position = position
    }

    var codingPath: [any CodingKey] { position.codingPath(in: decoder.path) }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The next element, not consumed.
    /// - Throws: `DecodingError.valueNotFound` (for `type`) at the end.
    func peek(_ type: Any.Type, _ message: String = "Unkeyed container is at end.") throws -> JSONValue {
        guard currentIndex < elements.count else {
            throw decoder.valueNotFound(type, at: position, .index(currentIndex), message)
        }
        return elements[currentIndex]
    }

    /// Converts the next element with `convert` and advances only on success.
    private mutating func next<T>(
        _ type: T.Type, _ convert: (ValueDecoder, JSONValue, PathPosition, PathKey) throws -> T
    ) throws -> T {
        let result = try convert(decoder, peek(type), position, .index(currentIndex))
        currentIndex += 1
        return result
    }

    /// Like `next`, but nil for null or at the end, advancing in all successful cases.
    private mutating func nextIfPresent<T>(
        _ type: T.Type, _ convert: (ValueDecoder, JSONValue, PathPosition, PathKey) throws -> T
    ) throws -> T? {
        var result: T?
        if currentIndex < elements.count, !elements[currentIndex].isNull {
            result = try convert(decoder, elements[currentIndex], position, .index(currentIndex))
        }
        currentIndex += 1
        return result
    }

    private mutating func integer<T: FixedWidthInteger>() throws -> T {
        try next(T.self) { try $0.integer($1, as: T.self, at: $2, $3) }
    }

    private mutating func float<T: BinaryFloatingPoint & LosslessStringConvertible>() throws -> T {
        try next(T.self) { try $0.floatingPoint($1, as: T.self, at: $2, $3) }
    }

    mutating func decodeNil() throws -> Bool {
        guard try peek(Never.self).isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        try next(type) { try $0.bool($1, at: $2, $3) }
    }

    mutating func decode(_ type: String.Type) throws -> String {
        try next(type) { try $0.string($1, at: $2, $3) }
    }

    mutating func decode(_ type: Double.Type) throws -> Double { try float() }
    mutating func decode(_ type: Float.Type) throws -> Float { try float() }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer() }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next(type) { try $0.unwrap($1, as: type, at: $2, $3) }
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        try nextIfPresent(type) { try $0.unwrap($1, as: type, at: $2, $3) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try peek(KeyedDecodingContainer<NestedKey>.self)
        let container = try decoder.keyedContainer(
            for: value, at: position.appending(.index(currentIndex)), keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let value = try peek(
            (any UnkeyedDecodingContainer).self, "Cannot get nested unkeyed container -- unkeyed container is at end.")
        let container = try decoder.unkeyedContainer(for: value, at: position.appending(.index(currentIndex)))
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let value = try peek((any Decoder).self, "Cannot get superDecoder() -- unkeyed container is at end.")
        let superDecoder = decoder.detachedDecoder(for: value, at: position, .index(currentIndex))
        currentIndex += 1
        return superDecoder
    }
}
