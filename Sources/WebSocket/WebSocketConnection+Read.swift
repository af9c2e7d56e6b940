extension WebSocketConnection {
    /// Event: bytes arrived from the peer. Reads `bytes[offset...]` until one data message is delivered, the input
    /// ends, or the connection stops reading; `offset` is moved past what was consumed (to the end when the rest is
    /// ignored). Call again with the same `offset` until it reaches `bytes.count`, carrying out the actions of each
    /// call first: the app's answer to one message then comes before anything about the next.
    ///
    /// Appends, in wire order: a Pong write for each Ping (§5.5.2); `.deliver` for a complete text or binary message
    /// while `open` (discarded after our Close, §5.5.1); for the peer's Close, the echo and the close (§5.5.1,
    /// §7.1.1); for a protocol violation, a Close with 1002, 1007 or 1009 and its reason, then the close (§7.1.7).
    /// Any input counts as a sign of life for the keep-alive.
    /// - Parameters:
    ///   - bytes: any part of the stream (a frame split anywhere, several frames); nothing points into it afterwards.
    ///   - offset: where to start, 0...`bytes.count`; updated.
    ///   - now: monotonic time, ms.
    ///   - actions: where the actions go (appended).
    public mutating func read(
        _ bytes: UnsafeRawBufferPointer, from offset: inout Int, now: UInt64, into actions: inout [Action]
    ) {
        keepAlive.lastHeard = now
        keepAlive.heardSincePing = true
        guard lifecycle == .open || lifecycle == .closeSent else {
            offset = bytes.count
            return
        }
        do {
            while let output = try reader.next(bytes, at: &offset) {
                switch output {
                case .text(let payload):
                    guard lifecycle == .open else { continue }
                    return actions.append(.deliver(.text(payload)))
                case .binary(let payload):
                    guard lifecycle == .open else { continue }
                    return actions.append(.deliver(.binary(payload)))
                case .ping(let payload):
                    payload.withUnsafeBytes { actions.append(.write(frame(.pong, payload: $0))) }
                case .pong:
                    break  // any input already counted as a sign of life (§5.5.3: unsolicited pongs are fine)
                case .close(let code, let reason):
                    offset = bytes.count
                    receivedClose = ReceivedClose(code: code, reason: reason)
                    return peerClosed(code: code, into: &actions)
                }
            }
        } catch {
            failConnection(error, into: &actions)
        }
    }

    /// The peer's Close (§5.5.1): while open, echo its code (none if it sent none; no reason), then a server closes TCP
    /// once the echo is written and a client waits for the server's EOF; after our own Close it completes the handshake.
    mutating func peerClosed(code: UInt16?, into actions: inout [Action]) {
        switch lifecycle {
        case .open:
            let payload = code.map { WebSocketFrameEncoder.closePayload(code: WebSocketCloseCode(rawValue: $0), reason: "") }
            (payload ?? []).withUnsafeBytes { actions.append(.write(frame(.close, payload: $0))) }
            cancelKeepAlive(into: &actions)
            switch role {
            case .server: enterClosed(afterWrites: true, cause: .peerClosed(code: code), into: &actions)
            case .client:
                lifecycle = .awaitingEOF
                actions.append(.armTimer(.close, milliseconds: configuration.closeTimeoutMs))
            }
        case .closeSent:
            switch role {
            case .server: enterClosed(afterWrites: false, cause: .peerClosed(code: code), into: &actions)
            case .client: lifecycle = .awaitingEOF  // the close timer armed with our Close keeps running
            }
        case .awaitingEOF, .closed:
            break
        }
    }
}
