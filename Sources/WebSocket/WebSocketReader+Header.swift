extension WebSocketReader {
    /// Moves header bytes from `bytes[index...]` into `headerBytes` until the header is complete, then checks
    /// it and makes it the current `frame`.
    /// - Returns: false when the input ran out before the header was complete.
    /// - Throws: the `WebSocketFailure` for a header that breaks §5.2–§5.5 or the size limit.
    mutating func consumeHeader(_ bytes: UnsafeRawBufferPointer, at index: inout Int) throws(WebSocketFailure)
        -> Bool
    {
        while true {
            let needed = headerBytes.count < 2 ? 2 : WebSocketFrameHeader.length(secondByte: headerBytes[1])
            let missing = needed - headerBytes.count
            if missing == 0 { break }
            let take = min(missing, bytes.count - index)
            guard take > 0 else { return false }
            headerBytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))
            index += take
            if headerBytes.count == 2 {
                try checkLeadingBytes(headerBytes[0], headerBytes[1])
            }
        }
        let header = try WebSocketFrameHeader.decode(headerBytes)
        headerBytes.removeAll(keepingCapacity: true)
        if !header.opcode.isControl, header.payloadLength > maxMessageBytes - messageBytes.count {
            throw WebSocketFailure(
                closeCode: .messageTooBig, reason: "Message is larger than \(maxMessageBytes) bytes.")
        }
        if header.opcode == .text || header.opcode == .binary {
            messageOpcode = header.opcode
        }
        frame = header
        frameConsumed = 0
        return true
    }

    /// Checks what the first two header bytes alone decide (§5.1, §5.2, §5.4, §5.5), so a bad frame fails
    /// before the rest of its header arrives.
    /// - Throws: a 1002 `WebSocketFailure`.
    private func checkLeadingBytes(_ first: UInt8, _ second: UInt8) throws(WebSocketFailure) {
        guard first & 0x70 == 0 else {
            throw Self.protocolError("Reserved bits are set but no extension was negotiated.")
        }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw Self.protocolError("Reserved opcode \(first & 0x0F).")
        }
        let masked = second & 0x80 != 0
        switch role {
        case .server where !masked: throw Self.protocolError("Frames from a client must be masked.")
        case .client where masked: throw Self.protocolError("Frames from a server must not be masked.")
        default: break
        }
        if opcode.isControl {
            guard first & 0x80 != 0 else { throw Self.protocolError("Control frames must not be fragmented.") }
            guard second & 0x7F <= 125 else {
                throw Self.protocolError("Control frame payload is longer than 125 bytes.")
            }
        } else if opcode == .continuation {
            guard messageOpcode != nil else {
                throw Self.protocolError("Continuation frame without a message to continue.")
            }
        } else if messageOpcode != nil {
            throw Self.protocolError("New data frame while a fragmented message is still open.")
        }
    }
}
