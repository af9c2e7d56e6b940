#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Values written without running `encode(to:)`: scalars (found by comparing metadata pointers, which is cheap)
/// and the Foundation types that `JSONEncoder` treats specially by default: `Data` as a base64 string, `URL` as
/// its absolute string, `Decimal` as a number (its `description`). `Date` is not special: `.deferredToDate`
/// runs `Date.encode(to:)`, a `Double` of seconds since 2001-01-01.
extension BytesEncoder {
    /// Writes `value` directly and returns true, or returns false for types that must run `encode(to:)`.
    /// - Throws: `EncodingError.invalidValue` for a non-finite `Double` / `Float`.
    func encodeDirectly<T: Encodable>(_ value: T, at position: PathPosition, _ key: PathKey?) throws -> Bool {
        if T.self == String.self {
            JSONTextWriter.writeString(unsafeBitCast(value, to: String.self), into: &buffer)
        } else if T.self == Int.self {
            JSONTextWriter.writeInteger(unsafeBitCast(value, to: Int.self), into: &buffer)
        } else if T.self == Bool.self {
            writeBool(unsafeBitCast(value, to: Bool.self))
        } else if T.self == Double.self {
            try writeDouble(unsafeBitCast(value, to: Double.self), at: position, key)
        } else if T.self == Float.self {
            try writeFloat(unsafeBitCast(value, to: Float.self), at: position, key)
        } else if writeOtherInteger(value) {
            return true
        } else {
            return writeFoundationType(value)
        }
        return true
    }

    private func writeOtherInteger<T>(_ value: T) -> Bool {
        func write<I: FixedWidthInteger>(_ type: I.Type) -> Bool {
            JSONTextWriter.writeInteger(unsafeBitCast(value, to: I.self), into: &buffer)
            return true
        }
        if T.self == Int64.self { return write(Int64.self) }
        if T.self == UInt.self { return write(UInt.self) }
        if T.self == UInt64.self { return write(UInt64.self) }
        if T.self == Int32.self { return write(Int32.self) }
        if T.self == UInt32.self { return write(UInt32.self) }
        if T.self == Int16.self { return write(Int16.self) }
        if T.self == UInt16.self { return write(UInt16.self) }
        if T.self == Int8.self { return write(Int8.self) }
        if T.self == UInt8.self { return write(UInt8.self) }
        if T.self == Int128.self { return write(Int128.self) }
        if T.self == UInt128.self { return write(UInt128.self) }
        return false
    }

    private func writeFoundationType<T>(_ value: T) -> Bool {
        if T.self == Data.self {
            JSONTextWriter.writeString((value as! Data).base64EncodedString(), into: &buffer)
        } else if T.self == URL.self {
            JSONTextWriter.writeString((value as! URL).absoluteString, into: &buffer)
        } else if T.self == Decimal.self {
            buffer.append(contentsOf: (value as! Decimal).description.utf8)
        } else {
            return false
        }
        return true
    }
}
