import Glibc

extension TestSocket {
    /// Waits until bytes arrive or the peer closes, then returns what one `recv(2)` gives.
    ///
    /// - Parameters:
    ///   - upTo: the most bytes to return (default 65536).
    ///   - deadline: when to give up waiting.
    /// - Returns: 1…`upTo` bytes, or `[]` at end of stream (EOF), including after a local `close()`.
    /// - Throws: `TestClientError` on timeout or on a socket error such as `ECONNRESET`.
    public func receive(upTo: Int = 65536, deadline: ContinuousClock.Instant) throws -> [UInt8] {
        precondition(upTo > 0, "upTo must be positive")
        try waitReadable(deadline: deadline)
        while true {
            var buffer = [UInt8](repeating: 0, count: upTo)
            let count = buffer.withUnsafeMutableBytes { raw in
                Glibc.recv(descriptor, raw.baseAddress, raw.count, 0)
            }
            if count >= 0 {
                buffer.removeSubrange(count...)
                return buffer
            }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                try waitReadable(deadline: deadline)
                continue
            }
            throw TestClientError.posix("recv", errno: code)
        }
    }

    /// Reads until the peer closes the connection (EOF) and returns everything read.
    ///
    /// - Parameter deadline: when to give up if the peer keeps the connection open.
    /// - Throws: `TestClientError` on timeout (the message says how many bytes had arrived)
    ///   or on a socket error.
    public func receiveUntilClosed(deadline: ContinuousClock.Instant) throws -> [UInt8] {
        var collected: [UInt8] = []
        while true {
            let chunk: [UInt8]
            do {
                chunk = try receive(deadline: deadline)
            } catch let error as TestClientError {
                throw TestClientError("\(error) (while waiting for EOF; \(collected.count) bytes read so far)",
                                      isTimeout: error.isTimeout)
            }
            if chunk.isEmpty { return collected }
            collected += chunk
        }
    }

    /// Blocks in `poll(2)` until the socket is readable, hung up, or in error.
    func waitReadable(deadline: ContinuousClock.Instant) throws {
        while true {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = deadline.millisecondsLeft
            let ready = Glibc.poll(&entry, 1, Int32(clamping: left))
            if ready > 0 { return }
            if ready == 0 {
                if left > 0 { continue }  // woke a little early: poll rounds down
                throw TestClientError.timeout("receive: timed out waiting for bytes from 127.0.0.1:\(port)")
            }
            let code = errno
            if code != EINTR { throw TestClientError.posix("poll", errno: code) }
        }
    }
}
