import JSONPatch

/// Scalar conversions shared by all containers. `position` + `key` locate the value, for errors only.
extension ValueDecoder {
    /// `true` / `false` only. Like Foundation, null is a type mismatch here, not `valueNotFound`.
    func bool(_ value: JSONValue, at position: PathPosition, _ key: PathKey?) throws -> Bool {
        if case .bool(let bool) = value { return bool }
        throw typeMismatch(Bool.self, found: value, at: position, key)
    }

    /// A JSON string only.
    func string(_ value: JSONValue, at position: PathPosition, _ key: PathKey?) throws -> String {
        switch value {
        case .string(let string): return string
        case .null: throw valueNotFound(String.self, at: position, key)
        default: throw typeMismatch(String.self, found: value, at: position, key)
        }
    }

    /// A JSON number that is exactly an integer in `T`'s range (see `JSONNumber.integer(as:)`).
    /// - Throws: `.dataCorrupted` when not representable, `.valueNotFound` for null, `.typeMismatch` otherwise.
    func integer<T: FixedWidthInteger>(
        _ value: JSONValue, as type: T.Type, at position: PathPosition, _ key: PathKey?
    ) throws -> T {
        switch value {
        case .number(let number):
            guard let integer = number.integer(as: T.self) else {
                throw dataCorrupted(
                    "Parsed JSON number <\(number.text)> does not fit in \(T.self).", at: position, key)
            }
            return integer
        case .null: throw valueNotFound(T.self, at: position, key)
        default: throw typeMismatch(T.self, found: value, at: position, key)
        }
    }

    /// Any JSON number that is finite (and not a non-zero underflow) in `T`.
    /// - Throws: `.dataCorrupted` when not representable, `.valueNotFound` for null, `.typeMismatch` otherwise.
    func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: JSONValue, as type: T.Type, at position: PathPosition, _ key: PathKey?
    ) throws -> T {
        switch value {
        case .number(let number):
            guard let result = number.floatingPoint(as: T.self) else {
                throw dataCorrupted(
                    "Parsed JSON number <\(number.text)> does not fit in \(T.self).", at: position, key)
            }
            return result
        case .null: throw valueNotFound(T.self, at: position, key)
        default: throw typeMismatch(T.self, found: value, at: position, key)
        }
    }

    /// `T` converted without running `init(from:)` when it is a scalar or a Foundation type with a JSON-specific
    /// strategy; nil for any other type. `T.self == X.self` compares metadata pointers, so the miss is cheap.
    func decodeDirectly<T>(_ value: JSONValue, as type: T.Type, at position: PathPosition, _ key: PathKey?) throws -> T? {
        if T.self == String.self { return unsafeBitCast(try string(value, at: position, key), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try integer(value, as: Int.self, at: position, key), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try bool(value, at: position, key), to: T.self) }
        if T.self == Double.self {
            return unsafeBitCast(try floatingPoint(value, as: Double.self, at: position, key), to: T.self)
        }
        if let integer = try decodeOtherInteger(value, as: T.self, at: position, key) { return integer }
        if T.self == Float.self {
            return unsafeBitCast(try floatingPoint(value, as: Float.self, at: position, key), to: T.self)
        }
        return try decodeFoundationType(value, as: T.self, at: position, key)
    }

    private func decodeOtherInteger<T>(
        _ value: JSONValue, as type: T.Type, at position: PathPosition, _ key: PathKey?
    ) throws -> T? {
        func cast<I: FixedWidthInteger>(_ integerType: I.Type) throws -> T {
            unsafeBitCast(try integer(value, as: I.self, at: position, key), to: T.self)
        }
        if T.self == Int64.self { return try cast(Int64.self) }
        if T.self == UInt.self { return try cast(UInt.self) }
        if T.self == UInt64.self { return try cast(UInt64.self) }
        if T.self == Int32.self { return try cast(Int32.self) }
        if T.self == UInt32.self { return try cast(UInt32.self) }
        if T.self == Int16.self { return try cast(Int16.self) }
        if T.self == UInt16.self { return try cast(UInt16.self) }
        if T.self == Int8.self { return try cast(Int8.self) }
        if T.self == UInt8.self { return try cast(UInt8.self) }
        if T.self == Int128.self { return try cast(Int128.self) }
        if T.self == UInt128.self { return try cast(UInt128.self) }
        return nil
    }
}
