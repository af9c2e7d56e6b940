/// XOR masking of frame payloads (RFC 6455 §5.3). Masking and unmasking are the same operation.
enum WebSocketMasking {
    /// XORs `bytes` in place with the 4-byte `key` (bytes in wire order), where `bytes[0]` is payload byte
    /// number `offset` of its frame. Works 8 bytes at a time, then byte by byte for the tail. No allocation.
    static func apply(key: (UInt8, UInt8, UInt8, UInt8), offset: Int, to bytes: UnsafeMutableRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        // An 8-byte word holding the key twice, rotated to line up with base[0], in memory order so the
        // XOR is endian-neutral.
        var word: UInt64 = 0
        withUnsafeBytes(of: key) { keyBytes in
            withUnsafeMutableBytes(of: &word) { out in
                for index in 0..<8 { out[index] = keyBytes[(offset + index) & 3] }
            }
        }
        let count = bytes.count
        var index = 0
        while index + 8 <= count {
            let value = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            base.storeBytes(of: value ^ word, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        withUnsafeBytes(of: word) { wordBytes in
            while index < count {
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                base.storeBytes(of: byte ^ wordBytes[index & 7], toByteOffset: index, as: UInt8.self)
                index += 1
            }
        }
    }
}
