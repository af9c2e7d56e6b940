/// Builds frames for sending (RFC 6455 §5.2). Servers send unmasked frames; clients mask with a fresh key.
public enum WebSocketFrameEncoder {
    /// One whole frame: header (7/16/64-bit length, §5.2) + payload. Masked with `maskingKey` when given (client frames).
    /// - Parameters:
    ///   - opcode: the frame opcode; control frames should carry ≤ 125 bytes and `fin: true` (not checked).
    ///   - payload: the application data, copied (and masked in the copy) into the frame.
    ///   - fin: whether this is the final fragment of its message (§5.4).
    ///   - maskingKey: the 4-byte key in wire order (§5.3), or nil for an unmasked (server) frame.
    /// - Returns: header (2–14 bytes) followed by the payload bytes.
    public static func frame(
        opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer, fin: Bool = true,
        maskingKey: (UInt8, UInt8, UInt8, UInt8)? = nil
    ) -> [UInt8] {
        let total = frameLength(payloadLength: payload.count, masked: maskingKey != nil)
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            initialized = encode(opcode: opcode, payload: payload, fin: fin, maskingKey: maskingKey, to: base)
        }
    }

    /// Bytes of a whole frame with this payload: header (2, 4 or 10, §5.2), the masking key when masked (4), payload.
    /// - Parameter payloadLength: bytes, ≥ 0.
    public static func frameLength(payloadLength: Int, masked: Bool) -> Int {
        headerLength(payloadLength: payloadLength) + (masked ? 4 : 0) + payloadLength
    }

    /// Writes one whole frame at `to`, which has room for ``frameLength(payloadLength:masked:)`` bytes: the header
    /// (mask bit and key when `maskingKey` is given, §5.2–§5.3), then the payload, masked in the copy.
    /// - Returns: the bytes written, `frameLength(payloadLength: payload.count, masked: maskingKey != nil)`.
    @discardableResult
    public static func encode(
        opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer, fin: Bool = true,
        maskingKey: (UInt8, UInt8, UInt8, UInt8)? = nil, to base: UnsafeMutableRawPointer
    ) -> Int {
        var offset = writeHeader(opcode: opcode, payloadLength: payload.count, fin: fin, to: base)
        if let maskingKey {
            base.storeBytes(of: base.load(fromByteOffset: 1, as: UInt8.self) | 0x80, toByteOffset: 1, as: UInt8.self)
            withUnsafeBytes(of: maskingKey) { key in (base + offset).copyMemory(from: key.baseAddress!, byteCount: 4) }
            offset += 4
        }
        let body = UnsafeMutableRawBufferPointer(start: base + offset, count: payload.count)
        if let source = payload.baseAddress, !payload.isEmpty { body.baseAddress!.copyMemory(from: source, byteCount: payload.count) }
        if let maskingKey { WebSocketMasking.apply(key: maskingKey, offset: 0, to: body) }
        return offset + payload.count
    }

    /// One whole frame from an array payload; see `frame(opcode:payload:fin:maskingKey:)` for the raw-buffer form.
    /// - Returns: header (2–14 bytes) followed by the (possibly masked) payload bytes.
    public static func frame(
        opcode: WebSocketOpcode, payload: [UInt8], fin: Bool = true, maskingKey: (UInt8, UInt8, UInt8, UInt8)? = nil
    ) -> [UInt8] {
        payload.withUnsafeBytes { frame(opcode: opcode, payload: $0, fin: fin, maskingKey: maskingKey) }
    }

    /// Header size in bytes for an unmasked server frame with this payload length (2, 4 or 10): 7-bit length up
    /// to 125, 16-bit up to 65535, else 64-bit (§5.2). `payloadLength` is in bytes, ≥ 0.
    public static func headerLength(payloadLength: Int) -> Int {
        precondition(payloadLength >= 0, "payload length must not be negative")
        if payloadLength <= 125 { return 2 }
        if payloadLength <= 0xFFFF { return 4 }
        return 10
    }

    /// Writes an unmasked header at `to` (which has room for headerLength bytes); returns bytes written.
    /// The header uses the minimal length encoding (§5.2) and has RSV1–3 clear.
    /// - Returns: `headerLength(payloadLength:)`, i.e. 2, 4 or 10.
    public static func writeHeader(
        opcode: WebSocketOpcode, payloadLength: Int, fin: Bool, to: UnsafeMutableRawPointer
    ) -> Int {
        let count = headerLength(payloadLength: payloadLength)
        to.storeBytes(of: (fin ? 0x80 : 0) | opcode.rawValue, as: UInt8.self)
        switch count {
        case 2:
            to.storeBytes(of: UInt8(payloadLength), toByteOffset: 1, as: UInt8.self)
        case 4:
            to.storeBytes(of: 126, toByteOffset: 1, as: UInt8.self)
            to.storeBytes(of: UInt16(payloadLength).bigEndian, toByteOffset: 2, as: UInt16.self)
        default:
            to.storeBytes(of: 127, toByteOffset: 1, as: UInt8.self)
            to.storeBytes(of: UInt64(payloadLength).bigEndian, toByteOffset: 2, as: UInt64.self)
        }
        return count
    }
}
