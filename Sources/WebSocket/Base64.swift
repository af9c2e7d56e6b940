/// Standard base64 with padding (RFC 4648 §4), enough for handshake keys and accept values.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Encodes `bytes` as padded base64 text.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let b0 = UInt32(bytes[index])
            let b1 = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(group >> 18 & 0x3F)])
            out.append(alphabet[Int(group >> 12 & 0x3F)])
            out.append(remaining > 1 ? alphabet[Int(group >> 6 & 0x3F)] : UInt8(ascii: "="))
            out.append(remaining > 2 ? alphabet[Int(group & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes padded base64 text strictly: length a multiple of 4, only alphabet characters, `=` only as
    /// final padding. Returns nil for anything else.
    static func decode(_ text: Substring) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        var index = 0
        while index < chars.count {
            var padding = 0
            if index + 4 == chars.count, chars[index + 3] == UInt8(ascii: "=") {
                padding = chars[index + 2] == UInt8(ascii: "=") ? 2 : 1
            }
            var group: UInt32 = 0
            for offset in 0..<(4 - padding) {
                guard let value = sextet(chars[index + offset]) else { return nil }
                group = group << 6 | value
            }
            group <<= UInt32(6 * padding)
            out.append(UInt8(group >> 16 & 0xFF))
            if padding < 2 { out.append(UInt8(group >> 8 & 0xFF)) }
            if padding < 1 { out.append(UInt8(group & 0xFF)) }
            index += 4
        }
        return out
    }

    private static func sextet(_ char: UInt8) -> UInt32? {
        switch char {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(char - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(char - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(char - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
