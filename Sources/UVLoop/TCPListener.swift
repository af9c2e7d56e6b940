internal import CLibUV

/// A listening TCP socket; hands each accepted connection to `onAccept`.
///
/// ## Thread safety
/// Loop-confined: create and close it on its loop's thread only; `onAccept` runs there.
public final class TCPListener: LoopHandleOwner, @unchecked Sendable {
    private let handle: UnsafeMutablePointer<uv_tcp_t>
    private let loop: EventLoop
    private var onAccept: ((TCPConnection) -> Void)?
    private let onAcceptFailed: ((UVError) -> Void)?
    private var closing = false

    /// The port actually bound (the ephemeral one when asked for port 0).
    public private(set) var port: Int = 0

    /// Binds `host:port` (IPv4 or IPv6 literal) and starts listening.
    /// - Parameters:
    ///   - backlog: the kernel's pending-connection queue length.
    ///   - sharing: whether listeners of other loops share `host:port` (`SO_REUSEPORT`; the kernel spreads new
    ///     connections over them). See ``PortSharing``.
    ///   - onAcceptFailed: called on the loop thread when a connection could not be accepted (`uv_listen`'s callback
    ///     with a negative status, or `uv_accept` failing; e.g. `EMFILE` when the process is out of file descriptors:
    ///     libuv then closes the waiting connections itself, and may not report it at all when that works).
    ///   - onAccept: called on the loop thread with each new connection, not yet reading.
    /// - Throws: `UVError` from `uv_ip4_addr`/`uv_ip6_addr`, `uv_tcp_bind` (e.g. `EADDRINUSE`) or `uv_listen`.
    public init(
        loop: EventLoop, host: String, port: Int, backlog: Int32 = 1024, sharing: PortSharing = .none,
        onAcceptFailed: ((UVError) -> Void)? = nil, onAccept: @escaping (TCPConnection) -> Void
    ) throws(UVError) {
        loop.preconditionInLoop()
        self.loop = loop
        self.onAccept = onAccept
        self.onAcceptFailed = onAcceptFailed
        handle = .allocate(capacity: 1)
        let family = host.contains(":") ? AF_INET6 : AF_INET
        let created = uv_tcp_init_ex(loop.uvLoop, handle, sharing == .none ? UInt32(AF_UNSPEC) : UInt32(family))
        guard created == 0 else {
            handle.deallocate()
            throw UVError(operation: "uv_tcp_init_ex", code: created)
        }
        loop.register(self, handle: cuv_tcp_as_handle(handle))
        do {
            if sharing == .joinsGroup { try UVError.check(cuv_tcp_set_reuseport(handle), "setsockopt(SO_REUSEPORT)") }
            try bind(host: host, port: port)
            if sharing == .opensGroup { try UVError.check(cuv_tcp_set_reuseport(handle), "setsockopt(SO_REUSEPORT)") }
            try UVError.check(uv_listen(cuv_tcp_as_stream(handle), backlog) { server, status in
                guard let raw = server?.pointee.data else { return }
                let listener = Unmanaged<TCPListener>.fromOpaque(raw).takeUnretainedValue()
                if status < 0 {
                    listener.acceptFailed(UVError(operation: "accept", code: status))
                } else {
                    listener.acceptOne()
                }
            }, "uv_listen")
            self.port = boundPort()
        } catch {
            closeHandle()
            throw error
        }
    }

    /// Stops accepting; connections already accepted are not affected.
    public func close() { closeHandle() }

    private func bind(host: String, port: Int) throws(UVError) {
        var storage = sockaddr_storage()
        try withUnsafeMutableBytes(of: &storage) { (raw) throws(UVError) in
            let address = raw.baseAddress!
            if host.contains(":") {
                try UVError.check(uv_ip6_addr(host, Int32(port), address.assumingMemoryBound(to: sockaddr_in6.self)), "uv_ip6_addr")
            } else {
                try UVError.check(uv_ip4_addr(host, Int32(port), address.assumingMemoryBound(to: sockaddr_in.self)), "uv_ip4_addr")
            }
            try UVError.check(uv_tcp_bind(handle, address.assumingMemoryBound(to: sockaddr.self), 0), "uv_tcp_bind")
        }
    }

    private func boundPort() -> Int {
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutableBytes(of: &storage) { raw -> Int in
            let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)
            guard uv_tcp_getsockname(handle, address, &length) == 0 else { return 0 }
            let portBigEndian = address.pointee.sa_family == sa_family_t(AF_INET6)
                ? raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self).pointee.sin6_port
                : raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self).pointee.sin_port
            return Int(UInt16(bigEndian: portBigEndian))
        }
    }

    private func acceptOne() {
        loop.assertInLoop()
        let connection = TCPConnection(loop: loop)
        let status = uv_accept(cuv_tcp_as_stream(handle), connection.stream)
        if status == 0 {
            connection.configure()
            onAccept?(connection)
        } else {
            connection.close()
            acceptFailed(UVError(operation: "uv_accept", code: status))
        }
    }

    private func acceptFailed(_ error: UVError) {
        loop.assertInLoop()
        guard !closing else { return }
        onAcceptFailed?(error)
    }

    func closeHandle() {
        loop.assertInLoop()
        guard !closing else { return }
        closing = true
        onAccept = nil
        loop.close(cuv_tcp_as_handle(handle))
    }

    deinit { handle.deallocate() }
}

/// How a listener shares its address with listeners of other loops of the same process (Linux `SO_REUSEPORT`).
public enum PortSharing: Sendable {
    /// Not shared.
    case none
    /// The first listener of a group: it binds without `SO_REUSEPORT`, so an address already in use — by any
    /// process, another Statehouse included — fails with `EADDRINUSE`; then sets it before listening, so
    /// ``joinsGroup`` listeners can bind the same address.
    case opensGroup
    /// A further listener: sets `SO_REUSEPORT` before binding the address its group's first listener holds.
    case joinsGroup
}
