#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Values written without running `encode(to:)`: scalars and arrays of common scalars (found by comparing
/// metadata pointers, which is cheap), and the Foundation types that `JSONEncoder` treats specially by default:
/// `Data` as a base64 string, `URL` as its absolute string, `Decimal` as a number (its `description`). `Date` is
/// not special: `.deferredToDate` runs `Date.encode(to:)`, a `Double` of seconds since 2001-01-01.
extension BytesEncoder {
    /// Writes `value` directly and returns true, or returns false for types that must run `encode(to:)`.
    /// - Throws: `EncodingError.invalidValue` for a non-finite `Double` / `Float`.
    func encodeDirectly<T: Encodable>(_ value: T, in anchor: PathAnchor, _ key: PathKey?) throws -> Bool {
        if T.self == String.self {
            JSONTextWriter.writeString(unsafeBitCast(value, to: String.self), into: &state.pointee.buffer)
        } else if T.self == Int.self {
            JSONTextWriter.writeInteger(unsafeBitCast(value, to: Int.self), into: &state.pointee.buffer)
        } else if T.self == Bool.self {
            writeBool(unsafeBitCast(value, to: Bool.self))
        } else if T.self == Double.self {
            try writeDouble(unsafeBitCast(value, to: Double.self), in: anchor, key)
        } else if T.self == Float.self {
            try writeFloat(unsafeBitCast(value, to: Float.self), in: anchor, key)
        } else if writeOtherInteger(value) {
            return true
        } else if try writeScalarArray(value, in: anchor, key) {
            return true
        } else {
            return writeFoundationType(value)
        }
        return true
    }

    private func writeOtherInteger<T>(_ value: T) -> Bool {
        func write<I: FixedWidthInteger>(_ type: I.Type) -> Bool {
            JSONTextWriter.writeInteger(unsafeBitCast(value, to: I.self), into: &state.pointee.buffer)
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

    /// `[Int]`, `[String]`, `[Double]` and `[Bool]` written as one array, as Foundation's encoder also does.
    private func writeScalarArray<T>(_ value: T, in anchor: PathAnchor, _ key: PathKey?) throws -> Bool {
        if T.self == [Int].self {
            writeArray(unsafeBitCast(value, to: [Int].self), in: anchor) { JSONTextWriter.writeInteger($1, into: &$0) }
        } else if T.self == [String].self {
            writeArray(unsafeBitCast(value, to: [String].self), in: anchor) { JSONTextWriter.writeString($1, into: &$0) }
        } else if T.self == [Bool].self {
            writeArray(unsafeBitCast(value, to: [Bool].self), in: anchor) { JSONTextWriter.writeBool($1, into: &$0) }
        } else if T.self == [Double].self {
            let doubles = unsafeBitCast(value, to: [Double].self)
            if let bad = doubles.firstIndex(where: { !$0.isFinite }) {
                var arrayPosition = position(of: anchor)
                if let key { arrayPosition = arrayPosition.appending(key) }
                throw nonFinite(doubles[bad], at: arrayPosition, .index(bad))
            }
            writeArray(doubles, in: anchor) { JSONTextWriter.writeDouble($1, into: &$0) }
        } else {
            return false
        }
        return true
    }

    private func writeArray<Element>(
        _ elements: [Element], in anchor: PathAnchor, _ write: (inout [UInt8], Element) -> Void
    ) {
        if base(of: anchor) + 1 >= 512 { state.pointee.depthExceeded = true }
        state.pointee.buffer.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { state.pointee.buffer.append(UInt8(ascii: ",")) }
            write(&state.pointee.buffer, element)
        }
        state.pointee.buffer.append(UInt8(ascii: "]"))
    }

    private func writeFoundationType<T>(_ value: T) -> Bool {
        if T.self == Data.self {
            JSONTextWriter.writeString((value as! Data).base64EncodedString(), into: &state.pointee.buffer)
        } else if T.self == URL.self {
            JSONTextWriter.writeString((value as! URL).absoluteString, into: &state.pointee.buffer)
        } else if T.self == Decimal.self {
            state.pointee.buffer.append(contentsOf: (value as! Decimal).description.utf8)
        } else {
            return false
        }
        return true
    }
}
