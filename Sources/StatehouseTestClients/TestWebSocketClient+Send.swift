extension TestWebSocketClient {
    /// Sends one unfragmented text message (opcode 0x1), masked.
    ///
    /// - Throws: `TestClientError` if the connection is closed or reset.
    public func sendText(_ text: String) throws {
        try sendFrame(opcode: WebSocketFrame.Opcode.text, payload: Array(text.utf8))
    }

    /// Sends one unfragmented binary message (opcode 0x2), masked.
    ///
    /// - Throws: `TestClientError` if the connection is closed or reset.
    public func sendBinary(_ bytes: [UInt8]) throws {
        try sendFrame(opcode: WebSocketFrame.Opcode.binary, payload: bytes)
    }

    /// Sends a ping (opcode 0x9) with `payload` as application data (keep it ≤ 125 bytes to be valid).
    ///
    /// - Throws: `TestClientError` if the connection is closed or reset.
    public func sendPing(_ payload: [UInt8] = []) throws {
        try sendFrame(opcode: WebSocketFrame.Opcode.ping, payload: payload)
    }

    /// Sends a pong (opcode 0xA) with `payload` as application data.
    ///
    /// - Throws: `TestClientError` if the connection is closed or reset.
    public func sendPong(_ payload: [UInt8] = []) throws {
        try sendFrame(opcode: WebSocketFrame.Opcode.pong, payload: payload)
    }

    /// Sends a close frame (opcode 0x8, §5.5.1): the 2-byte code in network order, then the UTF-8
    /// `reason`. With `code == nil` the payload is empty and `reason` is ignored.
    ///
    /// After this the client does not echo the server's close frame.
    /// - Throws: `TestClientError` if the connection is closed or reset.
    public func sendClose(code: UInt16?, reason: String = "") throws {
        var payload: [UInt8] = []
        if let code { payload = [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8) }
        _ = closeSent(mark: true)
        try sendFrame(opcode: WebSocketFrame.Opcode.close, payload: payload)
    }

    /// Sends one frame exactly as described, for protocol-violation tests.
    ///
    /// - Parameters:
    ///   - opcode: 4-bit opcode (§5.2), e.g. 0x1 text, 0x0 continuation, 0x3 reserved.
    ///   - payload: application data (bytes), masked on the wire when `masked`.
    ///   - fin: the FIN bit; `false` starts or continues a fragmented message.
    ///   - masked: whether to mask with a random masking key (`false` violates §5.1).
    ///   - rsv: the three RSV bits as 0...7 (4 = RSV1, 2 = RSV2, 1 = RSV3).
    /// - Throws: `TestClientError` if the connection is closed or reset.
    public func sendFrame(opcode: UInt8, payload: [UInt8], fin: Bool = true, masked: Bool = true,
                          rsv: UInt8 = 0) throws {
        let key = masked ? (0..<4).map { _ in UInt8.random(in: .min ... .max) } : nil
        let frame = WebSocketFrame(fin: fin, rsv: rsv, opcode: opcode, maskingKey: key, payload: payload)
        try reader.socket.send(frame.encode())
    }

    /// Writes `bytes` to the connection as they are (no framing, no masking).
    ///
    /// - Throws: `TestClientError` if the connection is closed or reset.
    public func sendRaw(_ bytes: [UInt8]) throws {
        try reader.socket.send(bytes)
    }
}
