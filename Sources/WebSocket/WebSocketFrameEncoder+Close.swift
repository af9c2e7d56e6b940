extension WebSocketFrameEncoder {
    /// Close payload: 2-byte code + UTF-8 reason, the reason cut at a UTF-8 boundary so the payload is ≤ 125 bytes.
    ///
    /// The code is written big-endian (§5.5.1); the reason keeps at most 123 bytes and never ends inside a
    /// multi-byte sequence, so the peer's UTF-8 check passes. The code is not checked for `isSendable`.
    /// - Returns: 2–125 bytes.
    public static func closePayload(code: WebSocketCloseCode, reason: String) -> [UInt8] {
        var payload: [UInt8] = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        let utf8 = reason.utf8
        var end = utf8.index(utf8.startIndex, offsetBy: 123, limitedBy: utf8.endIndex) ?? utf8.endIndex
        // Back up over continuation bytes (10xxxxxx) so the cut falls before a lead byte.
        while end != utf8.endIndex, end != utf8.startIndex, utf8[end] & 0xC0 == 0x80 {
            end = utf8.index(before: end)
        }
        payload.append(contentsOf: utf8[utf8.startIndex..<end])
        return payload
    }
}
