import WebSocket

/// The masking key from the RFC 6455 §5.7 examples.
let rfcKey: (UInt8, UInt8, UInt8, UInt8) = (0x37, 0xFA, 0x21, 0x3D)

/// A masked frame as a client would send it.
func clientFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
    WebSocketFrameEncoder.frame(opcode: opcode, payload: payload, fin: fin, maskingKey: rfcKey)
}

/// A masked frame from a raw first byte (FIN/RSV/opcode bits as given) and payload; for malformed frames.
func rawClientFrame(firstByte: UInt8, _ payload: [UInt8]) -> [UInt8] {
    var frame = clientFrame(.binary, payload)
    frame[0] = firstByte
    return frame
}

extension WebSocketReader {
    /// Feeds an array in one call.
    mutating func read(_ bytes: [UInt8]) -> WebSocketReadResult {
        bytes.withUnsafeBytes { read($0) }
    }

    /// Feeds `bytes` cut at `cuts` (sorted offsets) and merges the results.
    mutating func read(_ bytes: [UInt8], cutAt cuts: [Int]) -> WebSocketReadResult {
        var merged = WebSocketReadResult()
        var start = 0
        for end in cuts + [bytes.count] {
            let part = read(Array(bytes[start..<end]))
            merged.messages += part.messages
            if merged.failure == nil { merged.failure = part.failure }
            start = end
        }
        return merged
    }
}

/// Reads `bytes` in one call with a fresh server-role reader.
func serverRead(_ bytes: [UInt8], maxMessageBytes: Int = 1 << 20) -> WebSocketReadResult {
    var reader = WebSocketReader(role: .server, maxMessageBytes: maxMessageBytes)
    return reader.read(bytes)
}

/// The UTF-8 bytes of a string.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
