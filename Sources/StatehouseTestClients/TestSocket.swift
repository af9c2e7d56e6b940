import Foundation
import Synchronization
import Glibc
import Locking

/// A blocking TCP connection to `127.0.0.1:port` on plain POSIX sockets.
///
/// Every read waits with `poll(2)` against a caller-given deadline, and sends are bounded by
/// `SO_SNDTIMEO`, so no call can hang a test. End of stream (EOF) is reported as an empty read,
/// never retried. `TCP_NODELAY` is set so that small writes leave at once.
///
/// `close()` shuts the connection down in both directions (the peer sees a FIN); the file
/// descriptor itself is released when the object is deallocated, so a concurrent `receive`
/// on another thread wakes up with EOF instead of reading a reused descriptor.
///
/// ## Thread safety
/// Safe to share: one thread may send while another receives. Concurrent sends are serialised
/// so each `send` call's bytes stay contiguous on the wire.
public final class TestSocket: @unchecked Sendable {
    let descriptor: Int32
    /// The remote port this socket is connected to.
    public let port: UInt16
    /// Serialises sends (it guards no value).
    private let sendLock = Locked(())
    /// Whether ``close()`` has shut the connection down.
    private let isShutDown = Locked(false)

    /// Connects to `127.0.0.1:port`.
    ///
    /// - Parameters:
    ///   - port: TCP port of the server on the loopback interface.
    ///   - timeout: bound on the connect and on each blocked `send` (default 5 s).
    ///   - receiveBufferBytes: `SO_RCVBUF` set before the connect (the kernel doubles it), so a client that does
    ///     not read makes the server's writes back up after few bytes; nil keeps the kernel's autotuned buffer.
    ///     It also sets `TCP_MAXSEG` to 1,024 bytes: the server's send buffer starts at a few segments' worth
    ///     (on loopback's 64 KiB segments it would hold megabytes before the server sees any backlog).
    /// - Throws: `TestClientError` if the socket cannot be created or the connect fails
    ///   (for example "connection refused") or takes longer than `timeout`.
    public init(port: UInt16, timeout: Duration = .seconds(5), receiveBufferBytes: Int? = nil) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestClientError.posix("socket", errno: errno) }
        self.descriptor = fd
        self.port = port
        do {
            try Self.configure(fd, timeout: timeout)
            if var bytes = receiveBufferBytes.map(Int32.init) {
                var segment: Int32 = 1024
                guard setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, socklen_t(MemoryLayout<Int32>.size)) == 0,
                    setsockopt(fd, Int32(IPPROTO_TCP), TCP_MAXSEG, &segment, socklen_t(MemoryLayout<Int32>.size)) == 0
                else { throw TestClientError.posix("setsockopt(SO_RCVBUF, TCP_MAXSEG)", errno: errno) }
            }
            try Self.connectLoopback(fd, port: port)
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// Sends all of `bytes`, retrying partial writes.
    ///
    /// - Throws: `TestClientError` when the peer has gone (`EPIPE`, `ECONNRESET`), the socket was
    ///   closed locally, or a write stays blocked longer than the connect timeout.
    public func send(_ bytes: [UInt8]) throws {
        try sendLock.withLock { () throws(TestClientError) in
            var offset = 0
            while offset < bytes.count {
                let sent = bytes.withUnsafeBytes { raw in
                    Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                }
                if sent < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    if code == EAGAIN || code == EWOULDBLOCK {
                        throw TestClientError.timeout("send: timed out with \(bytes.count - offset) of \(bytes.count) bytes unsent")
                    }
                    throw TestClientError.posix("send", errno: code)
                }
                offset += sent
            }
        }
    }

    /// Sends the UTF-8 bytes of `text` (no terminator is added).
    ///
    /// - Throws: as `send(_:)` with bytes.
    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Half-closes the connection: sends a FIN (`shutdown(SHUT_WR)`), reading stays possible.
    public func shutdownWrite() {
        _ = Glibc.shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Shuts the connection down in both directions. Idempotent; later sends throw and
    /// later receives return EOF.
    public func close() {
        isShutDown.withLock { isShutDown in
            guard !isShutDown else { return }
            isShutDown = true
            _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        }
    }

    private static func configure(_ fd: Int32, timeout: Duration) throws {
        let ms = max(timeout.wholeMilliseconds, 1)
        var limit = timeval(tv_sec: ms / 1000, tv_usec: (ms % 1000) * 1000)
        guard setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            throw TestClientError.posix("setsockopt(SO_SNDTIMEO)", errno: errno)
        }
        var one: Int32 = 1
        guard setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw TestClientError.posix("setsockopt(TCP_NODELAY)", errno: errno)
        }
    }

    /// Linux bounds a blocking `connect` by `SO_SNDTIMEO` (it then fails with `EINPROGRESS`).
    private static func connectLoopback(_ fd: Int32, port: UInt16) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 {
            let code = errno
            if code == EINPROGRESS || code == EAGAIN {
                throw TestClientError.timeout("connect to 127.0.0.1:\(port): timed out")
            }
            throw TestClientError("connect to 127.0.0.1:\(port) failed: \(String(cString: strerror(code)))")
        }
    }
}
