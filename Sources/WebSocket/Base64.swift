internal import CCrypto

/// Standard base64 with padding (RFC 4648 §4), enough for handshake keys and accept values: libcrypto's
/// `EVP_EncodeBlock` / `EVP_DecodeBlock`, with the strictness the handshake needs checked here.
enum Base64 {
    /// Encodes `bytes` as padded base64 text (4 characters per 3 bytes, rounded up; no line breaks).
    static func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { encode($0) }
    }

    /// Encodes the bytes at `bytes` as padded base64 text (4 characters per 3 bytes, rounded up; no line breaks).
    static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
        precondition(bytes.count <= Int(Int32.max) / 4 * 3, "Base64.encode: input too large for EVP_EncodeBlock")
        let length = (bytes.count + 2) / 3 * 4
        // EVP_EncodeBlock writes a NUL after the text: room for it, not counted.
        return String(unsafeUninitializedCapacity: length + 1) { out in
            let source = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return Int(EVP_EncodeBlock(out.baseAddress, source, Int32(bytes.count)))
        }
    }

    /// Whether `text` is what ``decode(_:)`` takes for exactly 16 bytes (a `Sec-WebSocket-Key`, RFC 6455 §4.2.1 item
    /// 5), decided from its shape without decoding: 24 characters, 22 from the alphabet, then `==` (16 bytes are five
    /// 3-byte groups and one byte: 20 + 4 characters, two of them padding). Any other text ``decode(_:)`` takes gives
    /// another count; nothing is allocated.
    static func decodesTo16Bytes(_ text: Substring) -> Bool {
        let chars = text.utf8
        guard chars.count == 24 else { return false }
        let shaped = { (chars: UnsafeBufferPointer<UInt8>) -> Bool in
            chars[22] == UInt8(ascii: "=") && chars[23] == UInt8(ascii: "=") && chars[..<22].allSatisfy(isAlphabet)
        }
        // In place for a native string's bytes (the usual case); a bridged one is copied first.
        return chars.withContiguousStorageIfAvailable(shaped) ?? Array(chars).withUnsafeBufferPointer(shaped)
    }

    /// Decodes padded base64 text strictly: length a multiple of 4, only alphabet characters (no whitespace), `=`
    /// only as one or two final padding characters. Returns nil for anything else.
    ///
    /// `EVP_DecodeBlock` alone is lenient (it skips leading and trailing whitespace, takes `=` anywhere as a zero
    /// sextet) and counts the padding in its length (`"Zg=="` gives 3 bytes): so the shape is checked first and
    /// the padding's bytes are dropped after.
    static func decode(_ text: Substring) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 == 0, chars.count <= Int(Int32.max) else { return nil }
        if chars.isEmpty { return [] }
        let equals = UInt8(ascii: "=")
        let padding = chars[chars.count - 1] != equals ? 0 : chars[chars.count - 2] != equals ? 1 : 2
        for char in chars[..<(chars.count - padding)] where !isAlphabet(char) { return nil }
        let decodedCount = chars.count / 4 * 3
        var out = [UInt8](repeating: 0, count: decodedCount)
        let written = out.withUnsafeMutableBufferPointer { out in
            chars.withUnsafeBufferPointer { source in
                EVP_DecodeBlock(out.baseAddress, source.baseAddress, Int32(source.count))
            }
        }
        guard Int(written) == decodedCount else { return nil }
        out.removeLast(padding)
        return out
    }

    /// `A`–`Z`, `a`–`z`, `0`–`9`, `+`, `/`.
    private static func isAlphabet(_ char: UInt8) -> Bool {
        switch char {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
            true
        default:
            false
        }
    }
}
