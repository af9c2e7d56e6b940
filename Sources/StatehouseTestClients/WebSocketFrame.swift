/// One RFC 6455 frame (§5.2) as the test client writes or reads it.
struct WebSocketFrame {
    /// Opcodes from RFC 6455 §5.2 / §11.8.
    enum Opcode {
        static let continuation: UInt8 = 0x0
        static let text: UInt8 = 0x1
        static let binary: UInt8 = 0x2
        static let close: UInt8 = 0x8
        static let ping: UInt8 = 0x9
        static let pong: UInt8 = 0xA
    }

    var fin: Bool
    /// The three RSV bits as a value 0...7 (4 = RSV1, 2 = RSV2, 1 = RSV3).
    var rsv: UInt8
    var opcode: UInt8
    /// The masking key if the frame is masked (client-to-server frames must be, §5.3).
    var maskingKey: [UInt8]?
    /// The payload, unmasked.
    var payload: [UInt8]

    var isControl: Bool { opcode & 0x8 != 0 }

    /// Encodes the frame: header, extended length (16 or 64 bit, network order), masking key,
    /// then the payload XOR-ed with the masking key (§5.2, §5.3).
    func encode() -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | ((rsv & 0x7) << 4) | (opcode & 0xF)]
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        let length = payload.count
        if length < 126 {
            bytes.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            bytes.append(maskBit | 126)
            bytes += [UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            bytes += (0..<8).reversed().map { UInt8((UInt64(length) >> (UInt64($0) * 8)) & 0xFF) }
        }
        guard let key = maskingKey else { return bytes + payload }
        bytes += key
        bytes.reserveCapacity(bytes.count + length)
        for (index, byte) in payload.enumerated() {
            bytes.append(byte ^ key[index & 3])
        }
        return bytes
    }

    /// Decodes one frame from the front of `buffer`.
    ///
    /// - Returns: the frame and how many bytes it took, or `nil` if `buffer` holds only part of it.
    /// - Throws: `TestClientError` if the announced payload exceeds `maxPayload` bytes or uses a
    ///   64-bit length with the top bit set (§5.2).
    static func decode(_ buffer: [UInt8], maxPayload: Int) throws -> (frame: WebSocketFrame, consumed: Int)? {
        guard buffer.count >= 2 else { return nil }
        let first = buffer[0], second = buffer[1]
        var offset = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = UInt64(buffer[2]) << 8 | UInt64(buffer[3])
            offset = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | UInt64($1) }
            offset = 10
            if length >> 63 != 0 { throw TestClientError("frame length has the most significant bit set") }
        }
        guard length <= UInt64(maxPayload) else {
            throw TestClientError("frame payload of \(length) bytes exceeds the client's limit of \(maxPayload)")
        }
        var key: [UInt8]?
        if second & 0x80 != 0 {
            guard buffer.count >= offset + 4 else { return nil }
            key = Array(buffer[offset..<offset + 4])
            offset += 4
        }
        let end = offset + Int(length)
        guard buffer.count >= end else { return nil }
        var payload = Array(buffer[offset..<end])
        if let key {
            for index in payload.indices { payload[index] ^= key[index & 3] }
        }
        let frame = WebSocketFrame(fin: first & 0x80 != 0, rsv: (first >> 4) & 0x7, opcode: first & 0xF,
                                   maskingKey: key, payload: payload)
        return (frame, end)
    }
}
