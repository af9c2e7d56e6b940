import HTTP1
import UVLoop
import WebSocket

/// `connecting` and `handshaking`: the TCP connect, the request, and the server's answer (RFC 6455 §4.1).
extension WebSocketClient {
    /// `idle` → `connecting`: builds the request (bad extra fields end the client here), arms the connect timer and
    /// starts the TCP connect.
    func beginConnecting() {
        phase = .connecting
        do {
            handshake = try WebSocketClientHandshake(path: requestPath, host: endpoint.authority, fields: requestFields)
        } catch {
            return end(.failed(error.message), dropConnection: true)
        }
        let timer = LoopTimer(loop: loop)
        connectTimer = timer
        timer.start(delayMs: UInt64(configuration.connectTimeoutMs)) { [weak self] in self?.connectTimedOut() }
        connector = TCPConnection.connect(on: loop, host: endpoint.host, port: endpoint.port) { [self] result in
            connected(result)
        }
    }

    /// The TCP connect finished: on success the request goes out and the answer is read (`handshaking`).
    private func connected(_ result: Result<TCPConnection, UVError>) {
        loop.assertInLoop()
        connector = nil
        guard phase == .connecting else {
            // Given up meanwhile (close, abort, timeout): a connection that came anyway is dropped.
            if case .success(let late) = result { late.close() }
            return
        }
        switch result {
        case .failure(let error):
            end(.failed("could not connect to \(endpoint.authority): \(error)"), dropConnection: true)
        case .success(let connection):
            guard let handshake else { return connection.close() }
            self.connection = connection
            phase = .handshaking
            connection.writeLimits = WriteLimits(stallTimeoutMs: configuration.writeStallMs)
            connection.onRead = { [self] bytes in received(bytes) }
            connection.onEnd = { [self] error in transportEnded(error) }
            connection.onWriteStall = { [self] unsent in
                end(.failed("the server read nothing for \(configuration.writeStallMs) ms with \(unsent) bytes unsent"),
                    dropConnection: true)
            }
            connection.onClosed = { [self] in finish() }
            // Reading resumes once what waits unsent falls to the low-water mark (see `readFrames`).
            connection.onWritable = { [self] in
                if phase == .open || machine.mustReadForClose { self.connection?.startReading() }
            }
            responseParser = HTTPResponseParser()
            connection.write(handshake.requestBytes)
            connection.startReading()
        }
    }

    /// Bytes from the server: the answer's head while `handshaking`, RFC 6455 frames afterwards.
    func received(_ bytes: UnsafeRawBufferPointer) {
        loop.assertInLoop()
        switch phase {
        case .handshaking:
            if let result = responseParser?.feed(bytes) { answered(result) }
        case .open, .closing:
            readFrames(bytes)
        case .idle, .connecting, .closed:
            break
        }
    }

    /// The server's answer is complete: a valid 101 opens the WebSocket; any other status is a refusal; anything
    /// else fails.
    private func answered(_ result: HTTPResponseParseResult) {
        responseParser = nil
        switch result {
        case .failure(let error):
            end(.failed("the server's answer to the opening handshake is not valid HTTP: \(error.message)"), dropConnection: true)
        case .response(let head, let body):
            end(.refused(status: head.status, body: body), dropConnection: true)
        case .switchingProtocols(let head, let leftover):
            do {
                try handshake?.validate(status: head.status, fields: head.fields.map { (name: $0.name, value: $0.value) })
            } catch {
                return end(.failed(error.message), dropConnection: true)
            }
            opened(leftover: leftover)
        }
    }

    /// `handshaking` → `open`: liveness starts, the app hears of it, then the frames that came with the 101 are read.
    private func opened(leftover: [UInt8]) {
        phase = .open
        handshake = nil
        connectTimer?.close()
        connectTimer = nil
        perform { $0.startLiveness(now: loop.now, into: &$1) }
        onOpen?()
        if !leftover.isEmpty { leftover.withUnsafeBytes { received($0) } }
    }

    /// TCP ended (the server's FIN, or an error) while the answer was awaited: a body that ends with the connection
    /// may complete a refusal; otherwise the attempt failed.
    func handshakeEnded(_ error: UVError) {
        let result = responseParser?.finish()
        if let result, case .response = result { return answered(result) }
        end(.failed("the server ended the connection before answering the opening handshake"
            + (error.isEndOfFile ? "" : " (\(error))")), dropConnection: true)
    }

    /// The connect timer fired: connecting and handshaking together took longer than `connectTimeoutMs`.
    private func connectTimedOut() {
        switch phase {
        case .connecting:
            end(.failed("could not connect to \(endpoint.authority) within \(configuration.connectTimeoutMs) ms"),
                dropConnection: true)
        case .handshaking:
            end(.failed("the server did not answer the opening handshake within \(configuration.connectTimeoutMs) ms"),
                dropConnection: true)
        case .idle, .open, .closing, .closed:
            break
        }
    }
}
