import Glibc

/// A `TestSocket` plus the bytes read from it but not yet consumed.
///
/// HTTP heads and WebSocket frames do not line up with `recv` boundaries, so the clients read
/// through this buffer. After a `101` the bytes that followed the head stay here and are
/// parsed as frames.
///
/// ## Thread safety
/// Not thread-safe; each owning client serialises access with its own lock.
final class BufferedReader {
    let socket: TestSocket
    private(set) var pending: [UInt8] = []
    private(set) var sawEOF = false
    /// Whether the end of stream was a reset (`ECONNRESET`) rather than a FIN.
    private(set) var sawReset = false

    init(socket: TestSocket) {
        self.socket = socket
    }

    /// Reads once more into `pending`. Returns `false` at EOF or reset (also when seen before).
    ///
    /// - Throws: `TestClientError` on timeout or a socket error other than `ECONNRESET`.
    @discardableResult
    func fill(deadline: ContinuousClock.Instant) throws -> Bool {
        if sawEOF { return false }
        let chunk: [UInt8]
        do {
            chunk = try socket.receive(deadline: deadline)
        } catch let error as TestClientError where error.posixCode == ECONNRESET {
            sawEOF = true
            sawReset = true
            return false
        }
        if chunk.isEmpty {
            sawEOF = true
            return false
        }
        pending += chunk
        return true
    }

    /// Removes and returns the first `count` pending bytes (which must be there).
    func consume(_ count: Int) -> [UInt8] {
        let taken = Array(pending.prefix(count))
        pending.removeFirst(count)
        return taken
    }

    /// Reads until `count` bytes are pending, then consumes them.
    ///
    /// - Throws: `TestClientError` on timeout, or on EOF before `count` bytes arrived.
    func read(exactly count: Int, deadline: ContinuousClock.Instant, what: String) throws -> [UInt8] {
        while pending.count < count {
            guard try fill(deadline: deadline) else {
                throw TestClientError("connection closed after \(pending.count) of \(count) bytes of \(what)")
            }
        }
        return consume(count)
    }

    /// Reads until EOF and returns (consumes) everything pending.
    func readToEOF(deadline: ContinuousClock.Instant) throws -> [UInt8] {
        while try fill(deadline: deadline) {}
        return consume(pending.count)
    }

    /// Reads until a blank line (`CRLF CRLF`) ends a message head; consumes and returns the head
    /// including the blank line.
    ///
    /// - Parameter limit: the most bytes a head may take (bytes), guarding against garbage.
    /// - Throws: `TestClientError` on timeout, EOF before the blank line, or a head over `limit`.
    func readHead(deadline: ContinuousClock.Instant, limit: Int = 64 * 1024) throws -> [UInt8] {
        var searchFrom = 0
        while true {
            if let end = Self.blankLineEnd(in: pending, from: searchFrom) {
                return consume(end)
            }
            searchFrom = max(0, pending.count - 3)
            if pending.count > limit {
                throw TestClientError("response head longer than \(limit) bytes without a blank line")
            }
            guard try fill(deadline: deadline) else {
                let seen = String(decoding: pending.prefix(200), as: UTF8.self)
                let detail = pending.isEmpty ? "no bytes" : "\(pending.count) bytes: \(seen.debugDescription)"
                throw TestClientError("connection closed before a complete response head (\(detail))")
            }
        }
    }

    /// Index just past the first `\r\n\r\n` at or after `start`, if any.
    private static func blankLineEnd(in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = start
        while index + 4 <= bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 {
                return index + 4
            }
            index += 1
        }
        return nil
    }
}
