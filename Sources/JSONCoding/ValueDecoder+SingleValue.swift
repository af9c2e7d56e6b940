import JSON

/// The decoder is its own single-value container: it reads `current`, the value of the innermost frame.
extension ValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { current.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try bool(current, at: framePosition, nil) }
    func decode(_ type: String.Type) throws -> String { try string(current, at: framePosition, nil) }
    func decode(_ type: Double.Type) throws -> Double { try floatingPoint(current, as: type, at: framePosition, nil) }
    func decode(_ type: Float.Type) throws -> Float { try floatingPoint(current, as: type, at: framePosition, nil) }
    func decode(_ type: Int.Type) throws -> Int { try integer(current, as: type, at: framePosition, nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(current, as: type, at: framePosition, nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(current, as: type, at: framePosition, nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(current, as: type, at: framePosition, nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(current, as: type, at: framePosition, nil) }
    func decode(_ type: Int128.Type) throws -> Int128 { try integer(current, as: type, at: framePosition, nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(current, as: type, at: framePosition, nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(current, as: type, at: framePosition, nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(current, as: type, at: framePosition, nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(current, as: type, at: framePosition, nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(current, as: type, at: framePosition, nil) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(current, as: type, at: framePosition, nil) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try unwrap(current, as: type, at: framePosition, nil) }
}
