@testable import JSON

extension ReferenceJSONParser {
    /// A string, number, `true`, `false` or `null` at `position`.
    mutating func parseScalar() throws(JSONParseError) -> JSONValue {
        switch bytes[position] {
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = position
            position = try JSONNumberScanner.scan(bytes, from: start)
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            return .number(JSONNumber(validatedText: text))
        default:
            throw JSONParseError(offset: position, reason: .unexpectedByte)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        for offset in 0..<count {
            guard position + offset < bytes.count else {
                throw JSONParseError(offset: position + offset, reason: .unexpectedEnd)
            }
            guard bytes[position + offset] == literal.utf8Start[offset] else {
                throw JSONParseError(offset: position + offset, reason: .unexpectedByte)
            }
        }
        position += count
    }

    /// A string starting at the opening quote at `position`; leaves `position` after the closing quote.
    /// Escape-free strings are validated and copied in one step; others are decoded into a scratch buffer.
    mutating func parseString() throws(JSONParseError) -> String {
        let start = position + 1
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            index += 1
        }
        guard index < bytes.count else { throw JSONParseError(offset: index, reason: .unexpectedEnd) }
        if bytes[index] == UInt8(ascii: "\"") {
            position = index + 1
            return try makeString(UnsafeBufferPointer(rebasing: bytes[start..<index]), at: start)
        }
        var scratch = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index]))
        position = index
        while true {
            guard position < bytes.count else { throw JSONParseError(offset: position, reason: .unexpectedEnd) }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return try scratch.withUnsafeBufferPointer { buffer throws(JSONParseError) in
                    try makeString(buffer, at: start)
                }
            case UInt8(ascii: "\\"):
                try decodeEscape(into: &scratch)
            case 0..<0x20:
                throw JSONParseError(offset: position, reason: .controlCharacterInString)
            default:
                scratch.append(byte)
                position += 1
            }
        }
    }

    /// A String from UTF-8 bytes, rejecting ill-formed UTF-8. `String(decoding:)` repairs bad sequences with U+FFFD,
    /// so non-ASCII input is compared back against the result (cheaper than the generic `String(validating:)`).
    private func makeString(_ utf8: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONParseError) -> String {
        let string = String(decoding: utf8, as: UTF8.self)
        if utf8.contains(where: { $0 >= 0x80 }), !string.utf8.elementsEqual(utf8) {
            throw JSONParseError(offset: offset, reason: .invalidUTF8)
        }
        return string
    }

    /// Decodes the escape at `position` (a backslash) and appends its UTF-8 to `scratch` (RFC 8259 §7).
    private mutating func decodeEscape(into scratch: inout [UInt8]) throws(JSONParseError) {
        let escapeStart = position
        guard position + 1 < bytes.count else { throw JSONParseError(offset: position + 1, reason: .unexpectedEnd) }
        let letter = bytes[position + 1]
        position += 2
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(letter)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try hexQuad())
            if scalar >= 0xD800, scalar < 0xDC00 {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw JSONParseError(offset: escapeStart, reason: .loneSurrogate) }
                position += 2
                let low = UInt32(try hexQuad())
                guard low >= 0xDC00, low < 0xE000 else {
                    throw JSONParseError(offset: escapeStart, reason: .loneSurrogate)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if scalar >= 0xDC00, scalar < 0xE000 {
                throw JSONParseError(offset: escapeStart, reason: .loneSurrogate)
            }
            // Safe: surrogates were excluded above and the value is ≤ 0x10FFFF.
            scratch.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
            throw JSONParseError(offset: escapeStart, reason: .invalidEscape)
        }
    }

    /// Four hex digits at `position` → their value; advances past them.
    private mutating func hexQuad() throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { throw JSONParseError(offset: position, reason: .unexpectedEnd) }
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONParseError(offset: position, reason: .invalidEscape)
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }
}
