extension WebSocketReader {
    /// Moves payload bytes of the current `frame` from `bytes[index...]` into the message or control buffer,
    /// unmasking (and for text, UTF-8 checking) them; when the frame is complete, finishes it.
    /// - Returns: whether the input ran out first, the frame was a non-final fragment, or what it completed.
    /// - Throws: 1007 on invalid UTF-8; whatever `finishFrame` throws.
    mutating func consumePayload(_ bytes: UnsafeRawBufferPointer, at index: inout Int) throws(WebSocketFailure)
        -> PayloadStep
    {
        guard let header = frame else { return .fragment }
        let take = min(header.payloadLength - frameConsumed, bytes.count - index)
        if take > 0 {
            let chunk = UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)])
            if header.opcode.isControl {
                Self.appendUnmasked(chunk, to: &controlBytes, key: header.maskingKey, offset: frameConsumed)
            } else {
                let start = messageBytes.count
                Self.appendUnmasked(chunk, to: &messageBytes, key: header.maskingKey, offset: frameConsumed)
                if messageOpcode == .text {
                    let valid = messageBytes.withUnsafeBytes { all in
                        textValidator.validate(UnsafeRawBufferPointer(rebasing: all[start...]))
                    }
                    guard valid else {
                        throw WebSocketFailure(
                            closeCode: .invalidFramePayloadData, reason: "Text message is not valid UTF-8.")
                    }
                }
            }
            index += take
            frameConsumed += take
        }
        guard frameConsumed == header.payloadLength else { return .needMoreInput }
        frame = nil
        guard let output = try finishFrame(header) else { return .fragment }
        return .complete(output)
    }

    /// What one ``consumePayload(_:at:)`` call got to.
    enum PayloadStep {
        /// The input ended inside the frame.
        case needMoreInput
        /// The frame ended but completed nothing (a fragment before the final one).
        case fragment
        /// The frame completed a message or was a control frame.
        case complete(Output)
    }

    /// Appends `chunk` to `buffer` and unmasks the appended bytes in place.
    private static func appendUnmasked(
        _ chunk: UnsafeRawBufferPointer, to buffer: inout [UInt8], key: (UInt8, UInt8, UInt8, UInt8)?, offset: Int
    ) {
        let start = buffer.count
        buffer.append(contentsOf: chunk)
        guard let key else { return }
        buffer.withUnsafeMutableBytes { all in
            WebSocketMasking.apply(key: key, offset: offset, to: UnsafeMutableRawBufferPointer(rebasing: all[start...]))
        }
    }

    /// What a complete frame finishes: a control message, or the whole data message on FIN (nil before FIN).
    /// - Throws: for Close frames, see `closeMessage()`; 1007 for a text message ending mid-sequence.
    private mutating func finishFrame(_ header: WebSocketFrameHeader) throws(WebSocketFailure) -> Output? {
        switch header.opcode {
        case .ping:
            defer { controlBytes.removeAll(keepingCapacity: true) }
            return .ping(controlBytes)
        case .pong:
            defer { controlBytes.removeAll(keepingCapacity: true) }
            return .pong(controlBytes)
        case .close:
            let close = try closeMessage()
            finish()
            return close
        case .text, .binary, .continuation:
            guard header.fin else { return nil }
            return try dataMessage()
        }
    }

    /// The completed text or binary message, its buffer handed over (not copied); resets message state.
    /// - Throws: 1007 when a text message ends inside a UTF-8 sequence.
    private mutating func dataMessage() throws(WebSocketFailure) -> Output {
        defer { messageOpcode = nil }
        if messageOpcode == .text {
            guard textValidator.isAtBoundary else {
                throw WebSocketFailure(
                    closeCode: .invalidFramePayloadData, reason: "Text message ends inside a UTF-8 sequence.")
            }
            textValidator.reset()
        }
        var payload: [UInt8] = []
        swap(&payload, &messageBytes)
        return messageOpcode == .text ? .text(payload) : .binary(payload)
    }

    /// Decodes the Close payload in `controlBytes` (§5.5.1, §7.4).
    /// - Throws: 1002 for a 1-byte payload or a code that is not sendable; 1007 for a reason that is not UTF-8.
    private func closeMessage() throws(WebSocketFailure) -> Output {
        if controlBytes.isEmpty { return .close(code: nil, reason: "") }
        guard controlBytes.count >= 2 else { throw Self.protocolError("Close payload of 1 byte has no full code.") }
        let code = UInt16(controlBytes[0]) << 8 | UInt16(controlBytes[1])
        guard WebSocketCloseCode(rawValue: code).isSendable else {
            throw Self.protocolError("Close code \(code) is not allowed on the wire.")
        }
        let reason = controlBytes[2...]
        var validator = UTF8Validator()
        let valid = reason.withUnsafeBytes { validator.validate($0) } && validator.isAtBoundary
        guard valid else {
            throw WebSocketFailure(closeCode: .invalidFramePayloadData, reason: "Close reason is not valid UTF-8.")
        }
        return .close(code: code, reason: String(decoding: reason, as: UTF8.self))
    }
}
