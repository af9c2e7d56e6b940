import UVLoop
import WebSocket

/// `open` and `closing`: a thin adapter over `WebSocketConnection` (client role), as the server's `WebSocketSession`
/// and `statehouse-echo` are: bytes and events go in, its actions are carried out in order.
extension WebSocketClient {
    /// Feeds the bytes to the machine one delivered message at a time (the app's answer to a message comes before
    /// the next is read), until they are used up or TCP was dropped. Then, while more than the write high-water mark
    /// (1 MiB) waits unsent — a server that sends pings or requests but reads nothing — reading stops until it drains,
    /// so what this client queues (pongs, answers) stays bounded, as on the server.
    func readFrames(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count, !isDropped {
            perform { machine, actions in machine.read(bytes, from: &offset, now: loop.now, into: &actions) }
        }
        if let connection, connection.isWritePaused, !machine.mustReadForClose { connection.stopReading() }
    }

    /// TCP ended: the server's FIN (or a socket error).
    func transportEnded(_ error: UVError) {
        loop.assertInLoop()
        switch phase {
        case .handshaking:
            handshakeEnded(error)
        case .open, .closing:
            if !error.isEndOfFile { transportError = error }
            perform { $0.peerEnded(into: &$1) }
        case .idle, .connecting, .closed:
            connection?.close()
        }
    }

    /// Runs one event of the machine and carries out its actions.
    func perform(_ event: (inout WebSocketConnection, inout [WebSocketConnection.Action]) -> Void) {
        var actions: [WebSocketConnection.Action] = []
        event(&machine, &actions)
        carryOut(actions)
    }

    private func carryOut(_ actions: [WebSocketConnection.Action]) {
        for action in actions {
            switch action {
            case .write(let frame):
                connection?.write(frame)
            case .deliver(.text(let payload)):
                if phase == .open, !isDropped { onText?(payload) }
            case .deliver(.binary):
                perform {
                    $0.fail(WebSocketFailure(closeCode: .unsupportedData, reason: "This client takes text messages only."),
                        into: &$1)
                }
            case .resumeReading:
                connection?.startReading()
            case .armTimer(let timer, let ms):
                arm(timer, afterMs: ms)
            case .cancelTimer(.keepAlive):
                keepAliveTimer?.stop()
            case .cancelTimer(.close):
                closeTimer?.stop()
            case .close(let afterWrites, let cause):
                if ending == nil { ending = ending(for: cause) }
                if phase != .closed { phase = .closing }
                if afterWrites {
                    connection?.closeAfterWrites()
                } else {
                    isDropped = true
                    connection?.close()
                }
            }
        }
    }

    /// The ending for the machine's reason to close: the server's Close when one came (the closing handshake
    /// happened, whoever began it), else why the connection failed.
    private func ending(for cause: WebSocketConnection.CloseCause) -> Ending {
        switch cause {
        case .peerClosed, .peerEnded, .closeTimedOut:
            if let close = machine.receivedClose { return .closed(code: close.code, reason: close.reason) }
        case .failed, .noPong:
            break
        }
        switch cause {
        case .failed(let failure):
            return .failed("the WebSocket failed with close code \(failure.closeCode.rawValue): \(failure.reason)")
        case .noPong:
            return .failed("the server sent nothing for \(configuration.pongTimeoutMs) ms after a ping")
        case .closeTimedOut:
            return .failed("the server did not answer the Close within \(configuration.closeTimeoutMs) ms")
        case .peerClosed(let code):
            return .closed(code: code, reason: "")
        case .peerEnded:
            return .failed("the server ended the connection without a Close frame"
                + (transportError.map { " (\($0))" } ?? ""))
        }
    }
}
