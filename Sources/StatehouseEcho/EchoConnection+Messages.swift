import UVLoop
import WebSocket

/// The WebSocket part: a thin adapter over `WebSocketConnection`, the same state machine the Statehouse server runs,
/// so Autobahn tests the server's RFC 6455 rules. Echoing is the only app logic here.
extension EchoConnection {
    /// Feeds the bytes to the machine one delivered message at a time and carries out its actions.
    func receivedFrames(_ bytes: UnsafeRawBufferPointer) {
        connection.loop.assertInLoop()
        var offset = 0
        repeat {
            var actions: [WebSocketConnection.Action] = []
            machine.read(bytes, from: &offset, now: 0, into: &actions)
            carryOut(actions)
        } while offset < bytes.count
    }

    /// The peer ended TCP: the machine closes the socket.
    func webSocketEnded() {
        connection.loop.assertInLoop()
        var actions: [WebSocketConnection.Action] = []
        machine.peerEnded(into: &actions)
        carryOut(actions)
    }

    /// Carries out the machine's actions in order. It never arms a timer here: the echo server has no keep-alive
    /// and never starts a closing handshake of its own.
    private func carryOut(_ actions: [WebSocketConnection.Action]) {
        for action in actions {
            switch action {
            case .write(let frame): connection.write(frame)
            case .deliver(.text(let payload)): echo(.text, payload)
            case .deliver(.binary(let payload)): echo(.binary, payload)
            case .resumeReading: connection.startReading()
            case .armTimer, .cancelTimer: break
            case .close(let afterWrites, _):
                phase = .closed
                if afterWrites { connection.closeAfterWrites() } else { connection.close() }
            }
        }
    }

    /// Text and binary are echoed as one unfragmented frame of the same type (§5.6), framed straight into the
    /// write buffer.
    private func echo(_ kind: WebSocketConnection.DataKind, _ payload: [UInt8]) {
        guard machine.mayWriteData else { return }
        let buffer = OutboundBuffer(count: machine.frameLength(payloadCount: payload.count)) { base in
            payload.withUnsafeBytes { machine.encodeFrame(kind, payload: $0, to: base) }
        }
        connection.write(buffer)
    }
}
