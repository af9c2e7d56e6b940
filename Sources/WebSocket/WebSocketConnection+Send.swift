extension WebSocketConnection {
    /// Event: the app sends a data message (§5.6) as one unfragmented frame. Returns the frame to write (masked with a
    /// fresh key for a client, §5.3), or nil when data may no longer be sent (after a Close, §5.5.1).
    /// - Parameter payload: the message bytes; for `.text`, UTF-8 (not checked).
    public mutating func send(_ kind: DataKind, payload: UnsafeRawBufferPointer) -> [UInt8]? {
        guard lifecycle == .open else { return nil }
        return frame(kind.opcode, payload: payload)
    }

    /// ``send(_:payload:)`` for an array payload.
    public mutating func send(_ kind: DataKind, payload: [UInt8]) -> [UInt8]? {
        payload.withUnsafeBytes { send(kind, payload: $0) }
    }

    /// Bytes of the frame ``encodeFrame(_:payload:to:)`` writes for a payload of `payloadCount` bytes (≥ 0).
    @inlinable public func frameLength(payloadCount: Int) -> Int {
        WebSocketFrameEncoder.frameLength(payloadLength: payloadCount, masked: role == .client)
    }

    /// Event: the app sends a data message, framed straight into memory it owns (e.g. a socket write buffer, so the
    /// payload is copied once). Writes ``frameLength(payloadCount:)`` bytes at `to`.
    /// - Precondition: ``mayWriteData`` (check it first: nothing may be sent after a Close).
    public mutating func encodeFrame(_ kind: DataKind, payload: UnsafeRawBufferPointer, to: UnsafeMutableRawPointer) {
        precondition(lifecycle == .open, "no data frames after a Close (RFC 6455 §5.5.1)")
        WebSocketFrameEncoder.encode(opcode: kind.opcode, payload: payload, maskingKey: nextMaskingKey(), to: to)
    }

    /// Event: the app sends a Ping (§5.5.2) with 0–125 bytes of data. Returns the frame to write, or nil once closed
    /// or after a Close was received. Its Pong counts as a sign of life like any input.
    public mutating func ping(payload: [UInt8]) -> [UInt8]? {
        precondition(payload.count <= 125, "a Ping carries at most 125 bytes (RFC 6455 §5.5)")
        guard lifecycle == .open || lifecycle == .closeSent else { return nil }
        return payload.withUnsafeBytes { frame(.ping, payload: $0) }
    }

    /// One whole frame of ours: unmasked for a server, masked with the next key for a client (§5.1, §5.3).
    mutating func frame(_ opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer) -> [UInt8] {
        WebSocketFrameEncoder.frame(opcode: opcode, payload: payload, maskingKey: nextMaskingKey())
    }

    /// The key for our next frame: nil for a server; for a client a fresh random one (or the fixed test key).
    mutating func nextMaskingKey() -> (UInt8, UInt8, UInt8, UInt8)? {
        guard role == .client else { return nil }
        switch maskingKeys {
        case .fixed(let a, let b, let c, let d): return (a, b, c, d)
        case .random:
            var generator = SystemRandomNumberGenerator()
            let word = generator.next() as UInt32
            return (UInt8(truncatingIfNeeded: word), UInt8(truncatingIfNeeded: word >> 8),
                UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 24))
        }
    }
}
