import JSON

/// Scalar conversions shared by all containers. `position` + `key` locate the value, for errors only.
extension ValueDecoder {
    /// `true` / `false` only. Like Foundation, null is a type mismatch here, not `valueNotFound`.
    func bool(_ value: JSONValue, at position: PathPosition, _ key: @autoclosure () -> PathKey?) throws -> Bool {
        if case .bool(let bool) = value { return bool }
        throw typeMismatch(Bool.self, found: value, at: position, key())
    }

    /// A JSON string only.
    func string(_ value: JSONValue, at position: PathPosition, _ key: @autoclosure () -> PathKey?) throws -> String {
        switch value {
        case .string(let string): return string
        case .null: throw valueNotFound(String.self, at: position, key())
        default: throw typeMismatch(String.self, found: value, at: position, key())
        }
    }

    /// A JSON number that is exactly an integer in `T`'s range (see `JSONNumber.integer(as:)`).
    /// - Throws: `.dataCorrupted` when not representable, `.valueNotFound` for null, `.typeMismatch` otherwise.
    func integer<T: FixedWidthInteger>(
        _ value: JSONValue, as type: T.Type, at position: PathPosition, _ key: @autoclosure () -> PathKey?
    ) throws -> T {
        switch value {
        case .number(let number):
            guard let integer = number.integer(as: T.self) else {
                throw dataCorrupted(
                    "Parsed JSON number <\(number.text)> does not fit in \(T.self).", at: position, key())
            }
            return integer
        case .null: throw valueNotFound(T.self, at: position, key())
        default: throw typeMismatch(T.self, found: value, at: position, key())
        }
    }

    /// Any JSON number that is finite (and not a non-zero underflow) in `T`.
    /// - Throws: `.dataCorrupted` when not representable, `.valueNotFound` for null, `.typeMismatch` otherwise.
    func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: JSONValue, as type: T.Type, at position: PathPosition, _ key: @autoclosure () -> PathKey?
    ) throws -> T {
        switch value {
        case .number(let number):
            guard let result = number.floatingPoint(as: T.self) else {
                throw dataCorrupted(
                    "Parsed JSON number <\(number.text)> does not fit in \(T.self).", at: position, key())
            }
            return result
        case .null: throw valueNotFound(T.self, at: position, key())
        default: throw typeMismatch(T.self, found: value, at: position, key())
        }
    }

    /// Decodes a type that `DirectKind.of(_:)` recognised, without running `init(from:)`.
    func decodeDirectly<T>(
        _ kind: DirectKind, _ value: JSONValue, as type: T.Type, at position: PathPosition,
        _ key: @autoclosure () -> PathKey?
    ) throws -> T {
        switch kind {
        case .string: return try string(value, at: position, key()) as! T
        case .bool: return try bool(value, at: position, key()) as! T
        case .double: return try floatingPoint(value, as: Double.self, at: position, key()) as! T
        case .float: return try floatingPoint(value, as: Float.self, at: position, key()) as! T
        case .int: return try integer(value, as: Int.self, at: position, key()) as! T
        case .int8: return try integer(value, as: Int8.self, at: position, key()) as! T
        case .int16: return try integer(value, as: Int16.self, at: position, key()) as! T
        case .int32: return try integer(value, as: Int32.self, at: position, key()) as! T
        case .int64: return try integer(value, as: Int64.self, at: position, key()) as! T
        case .int128: return try integer(value, as: Int128.self, at: position, key()) as! T
        case .uint: return try integer(value, as: UInt.self, at: position, key()) as! T
        case .uint8: return try integer(value, as: UInt8.self, at: position, key()) as! T
        case .uint16: return try integer(value, as: UInt16.self, at: position, key()) as! T
        case .uint32: return try integer(value, as: UInt32.self, at: position, key()) as! T
        case .uint64: return try integer(value, as: UInt64.self, at: position, key()) as! T
        case .uint128: return try integer(value, as: UInt128.self, at: position, key()) as! T
        case .intArray:
            let converted = try array(value, at: position, key()) {
                if case .number(let number) = $0 { number.integer(as: Int.self) } else { nil }
            } slow: { try $0.integer($1, as: Int.self, at: $2, $3) }
            return converted as! T
        case .stringArray:
            let converted = try array(value, at: position, key()) {
                if case .string(let string) = $0 { string } else { nil }
            } slow: { try $0.string($1, at: $2, $3) }
            return converted as! T
        case .doubleArray:
            let converted = try array(value, at: position, key()) {
                if case .number(let number) = $0 { number.floatingPoint(as: Double.self) } else { nil }
            } slow: { try $0.floatingPoint($1, as: Double.self, at: $2, $3) }
            return converted as! T
        case .boolArray:
            let converted = try array(value, at: position, key()) {
                if case .bool(let bool) = $0 { bool } else { nil }
            } slow: { try $0.bool($1, at: $2, $3) }
            return converted as! T
        case .data, .url, .decimal:
            return try decodeFoundationType(kind, value, as: T.self, at: position, key())
        }
    }

    /// An array of scalars, with the errors `Array.init(from:)` would give. Each element is converted by `fast`;
    /// where that gives nil, `slow` converts it or throws the error (the element's coding path is built only then).
    private func array<Element>(
        _ value: JSONValue, at position: PathPosition, _ key: @autoclosure () -> PathKey?,
        _ fast: (JSONValue) -> Element?,
        slow: (ValueDecoder, JSONValue, PathPosition, PathKey) throws -> Element
    ) throws -> [Element] {
        guard case .array(let elements) = value else {
            var position = position
            if let key = key() { position = position.appending(key) }
            if case .null = value {
                throw valueNotFound(
                    [Any].self, at: position, nil, "Cannot get unkeyed decoding container -- found null value instead")
            }
            throw typeMismatch([Any].self, found: value, at: position, nil)
        }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            if let converted = fast(element) {
                result.append(converted)
                continue
            }
            var elementPosition = position
            if let key = key() { elementPosition = elementPosition.appending(key) }
            result.append(try slow(self, element, elementPosition, .index(index)))
        }
        return result
    }
}

/// Types decoded without `init(from:)`: scalars, arrays of common scalars (as Foundation also special-cases),
/// and Foundation types with JSON-specific default strategies.
enum DirectKind {
    case string, bool, double, float
    case int, int8, int16, int32, int64, int128
    case uint, uint8, uint16, uint32, uint64, uint128
    case intArray, stringArray, doubleArray, boolArray
    case data, url, decimal

    /// The kind of `type`, or nil when it must run `init(from:)`. Comparing metadata pointers is cheap, and
    /// this function is not generic, so a miss costs no generic metadata lookups.
    static func of(_ type: Any.Type) -> DirectKind? {
        if type == String.self { return .string }
        if type == Int.self { return .int }
        if type == Bool.self { return .bool }
        if type == Double.self { return .double }
        if type == Float.self { return .float }
        if type == Int64.self { return .int64 }
        if type == UInt.self { return .uint }
        if type == UInt64.self { return .uint64 }
        if type == Int32.self { return .int32 }
        if type == UInt32.self { return .uint32 }
        if type == Int16.self { return .int16 }
        if type == UInt16.self { return .uint16 }
        if type == Int8.self { return .int8 }
        if type == UInt8.self { return .uint8 }
        if type == Int128.self { return .int128 }
        if type == UInt128.self { return .uint128 }
        if type == [Int].self { return .intArray }
        if type == [String].self { return .stringArray }
        if type == [Double].self { return .doubleArray }
        if type == [Bool].self { return .boolArray }
        return foundationKind(of: type)
    }
}
