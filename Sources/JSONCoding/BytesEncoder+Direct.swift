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
    func encodeDirectly<T: Encodable>(
        _ value: T, in anchor: PathAnchor, _ key: @autoclosure () -> PathKey?
    ) throws -> Bool {
        if T.self == String.self {
            writeString(value as! String)
        } else if T.self == Int.self {
            writeInteger(Int64(value as! Int))
        } else if T.self == Bool.self {
            writeBool(value as! Bool)
        } else if T.self == Double.self {
            try writeDouble(value as! Double, in: anchor, key())
        } else if T.self == Float.self {
            try writeFloat(value as! Float, in: anchor, key())
        } else if writeOtherInteger(value) {
            return true
        } else if try writeScalarArray(value, in: anchor, key()) {
            return true
        } else {
            return writeFoundationType(value)
        }
        return true
    }

    private func writeOtherInteger<T>(_ value: T) -> Bool {
        func bits<I>(_ type: I.Type) -> I { value as! I }
        if T.self == Int64.self {
            writeInteger(bits(Int64.self))
        } else if T.self == UInt.self {
            writeInteger(UInt64(bits(UInt.self)))
        } else if T.self == UInt64.self {
            writeInteger(bits(UInt64.self))
        } else if T.self == Int32.self {
            writeInteger(Int64(bits(Int32.self)))
        } else if T.self == UInt32.self {
            writeInteger(UInt64(bits(UInt32.self)))
        } else if T.self == Int16.self {
            writeInteger(Int64(bits(Int16.self)))
        } else if T.self == UInt16.self {
            writeInteger(UInt64(bits(UInt16.self)))
        } else if T.self == Int8.self {
            writeInteger(Int64(bits(Int8.self)))
        } else if T.self == UInt8.self {
            writeInteger(UInt64(bits(UInt8.self)))
        } else if T.self == Int128.self {
            writeInteger(wide: bits(Int128.self))
        } else if T.self == UInt128.self {
            writeInteger(wide: bits(UInt128.self))
        } else {
            return false
        }
        return true
    }

    /// `[Int]`, `[String]`, `[Double]` and `[Bool]` written as one array, as Foundation's encoder also does.
    private func writeScalarArray<T>(
        _ value: T, in anchor: PathAnchor, _ key: @autoclosure () -> PathKey?
    ) throws -> Bool {
        if T.self == [Int].self {
            writeArray(value as! [Int], in: anchor) {
                JSONTextWriter.writeInteger(Int64($1), into: &$0)
            }
        } else if T.self == [String].self {
            writeArray(value as! [String], in: anchor) {
                JSONTextWriter.writeString($1, into: &$0)
            }
        } else if T.self == [Bool].self {
            writeArray(value as! [Bool], in: anchor) { JSONTextWriter.writeBool($1, into: &$0) }
        } else if T.self == [Double].self {
            let doubles = value as! [Double]
            if let bad = doubles.firstIndex(where: { !$0.isFinite }) {
                var arrayPosition = position(of: anchor)
                if let key = key() { arrayPosition = arrayPosition.appending(key) }
                throw nonFinite(doubles[bad], at: arrayPosition, .index(bad))
            }
            writeArray(doubles, in: anchor) { JSONTextWriter.writeDouble($1, into: &$0) }
        } else {
            return false
        }
        return true
    }

    private func writeArray<Element>(
        _ elements: [Element], in anchor: PathAnchor, _ write: (inout ByteBuffer, Element) -> Void
    ) {
        if base(of: anchor) + 1 >= 512 { state.pointee.depthExceeded = true }
        state.pointee.bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { state.pointee.bytes.append(UInt8(ascii: ",")) }
            write(&state.pointee.bytes, element)
        }
        state.pointee.bytes.append(UInt8(ascii: "]"))
    }

    private func writeFoundationType<T>(_ value: T) -> Bool {
        if T.self == Data.self {
            writeString((value as! Data).base64EncodedString())
        } else if T.self == URL.self {
            writeString((value as! URL).absoluteString)
        } else if T.self == Decimal.self {
            state.pointee.bytes.append(utf8: (value as! Decimal).description)
        } else {
            return false
        }
        return true
    }
}
