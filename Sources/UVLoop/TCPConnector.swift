internal import CLibUV

/// One outgoing TCP connection being made: the host name resolved (`uv_getaddrinfo`, on libuv's thread pool), then
/// each address tried in turn (`uv_tcp_connect`) until one accepts. Made by
/// ``TCPConnection/connect(on:host:port:completion:)``.
///
/// A separate type, so that ``TCPConnection`` keeps one lifecycle whatever made it: a connection exists for its
/// owner only once it is connected (`open`), as an accepted one does. The socket of an attempt belongs to the
/// connector until it is handed over.
///
/// Lifecycle (an explicit state machine, see ``State``):
/// ```
/// resolving ──addresses──▶ connecting ──connected──────────────────────────────▶ finished (.success)
///     │                      │  └──refused/unreachable: next address, if any ──▶ connecting
///     │                      └──no address left──────────────────────────────▶ finished (.failure)
///     └──name not found─────────────────────────────────────────────────────────▶ finished (.failure)
/// any state but finished ──cancel()──────────────────────────────────────────────▶ finished (.failure ECANCELED)
/// ```
/// Numeric IPv4 and IPv6 addresses skip `resolving`. The completion is called exactly once, on the loop thread, and
/// never before `connect` has returned (failures found at once are posted to the loop first); ``cancel()`` calls it
/// before it returns.
///
/// ## Thread safety
/// Loop-confined: create it (through `connect`) and call ``cancel()`` on its loop's thread only; the completion runs
/// there.
public final class TCPConnector: @unchecked Sendable {
    /// Where the connector is (see the diagram on ``TCPConnector``).
    enum State { case resolving, connecting, finished }

    /// The loop the connection will belong to.
    public let loop: EventLoop
    private let host: String
    private let port: Int
    private var state = State.resolving
    private var completion: ((Result<TCPConnection, UVError>) -> Void)?
    /// Addresses still to try, in resolver order.
    private var addresses: [sockaddr_storage] = []
    /// The socket of the attempt in progress.
    private var attempt: TCPConnection?
    /// The last attempt's error, reported when no address is left.
    private var lastError: UVError?
    /// The name lookup under way while `resolving` (cancelled by ``finish(_:)``: `EventLoop.stop()` would otherwise wait
    /// for the resolver's own timeout).
    private var resolveRequest: UnsafeMutablePointer<uv_getaddrinfo_t>?

    init(loop: EventLoop, host: String, port: Int, completion: @escaping (Result<TCPConnection, UVError>) -> Void) {
        self.loop = loop
        self.host = host
        self.port = port
        self.completion = completion
    }

    /// Stops connecting: the attempt's socket is closed, and the completion is called with `ECANCELED`
    /// (operation `"connect"`). No effect once finished.
    public func cancel() {
        loop.assertInLoop()
        guard state != .finished else { return }
        finish(.failure(UVError(operation: "connect", code: Int32(UV_ECANCELED.rawValue))))
    }

    /// True while resolving or connecting.
    public var isConnecting: Bool {
        loop.assertInLoop()
        return state != .finished
    }

    // MARK: Resolving

    func begin() {
        loop.assertInLoop()
        guard (0...65535).contains(port) else {
            return finishLater(UVError(operation: "connect", code: Int32(UV_EINVAL.rawValue)))
        }
        if let literal = Self.numericAddress(host, port: port) {
            addresses = [literal]
            state = .connecting
            return tryNextAddress()
        }
        let request = UnsafeMutablePointer<uv_getaddrinfo_t>.allocate(capacity: 1)
        request.pointee.data = Unmanaged.passRetained(self).toOpaque()
        resolveRequest = request
        let status = cuv_getaddrinfo_tcp(loop.uvLoop, request, { request, status, info in
            guard let request else { return }
            let connector = Unmanaged<TCPConnector>.fromOpaque(request.pointee.data).takeRetainedValue()
            connector.resolveRequest = nil
            request.deallocate()
            connector.resolved(status: status, info: info)
            if let info { uv_freeaddrinfo(info) }
        }, host)
        if status < 0 {
            resolveRequest = nil
            Unmanaged<TCPConnector>.fromOpaque(request.pointee.data).release()
            request.deallocate()
            finishLater(UVError(operation: "uv_getaddrinfo", code: status))
        }
    }

    /// An IPv4 or IPv6 literal (no brackets) as a socket address, or nil for a name.
    private static func numericAddress(_ host: String, port: Int) -> sockaddr_storage? {
        var storage = sockaddr_storage()
        let parsed = withUnsafeMutableBytes(of: &storage) { raw -> Bool in
            let address = raw.baseAddress!
            if host.contains(":") {
                return uv_ip6_addr(host, Int32(port), address.assumingMemoryBound(to: sockaddr_in6.self)) == 0
            }
            return uv_ip4_addr(host, Int32(port), address.assumingMemoryBound(to: sockaddr_in.self)) == 0
        }
        return parsed ? storage : nil
    }

    private func resolved(status: Int32, info: UnsafeMutablePointer<addrinfo>?) {
        loop.assertInLoop()
        guard state == .resolving else { return }  // cancelled meanwhile
        guard status == 0 else { return finish(.failure(UVError(operation: "uv_getaddrinfo", code: status))) }
        var next = info
        while let entry = next {
            var storage = sockaddr_storage()
            if cuv_addrinfo_copy(entry, Int32(port), &storage) == 0 { addresses.append(storage) }
            next = entry.pointee.ai_next
        }
        guard !addresses.isEmpty else {
            return finish(.failure(UVError(operation: "uv_getaddrinfo", code: Int32(UV_EAI_NONAME.rawValue))))
        }
        state = .connecting
        tryNextAddress()
    }

    // MARK: Connecting

    /// Starts a connect to the first address left, or finishes with the last error when none is.
    private func tryNextAddress() {
        loop.assertInLoop()
        guard state == .connecting else { return }
        guard !addresses.isEmpty else {
            return finish(.failure(lastError ?? UVError(operation: "uv_tcp_connect", code: Int32(UV_ECONNREFUSED.rawValue))))
        }
        var address = addresses.removeFirst()
        let connection = TCPConnection(loop: loop)
        attempt = connection
        let request = UnsafeMutablePointer<uv_connect_t>.allocate(capacity: 1)
        request.pointee.data = Unmanaged.passRetained(self).toOpaque()
        let status = withUnsafePointer(to: &address) { address in
            uv_tcp_connect(request, connection.handle, cuv_sockaddr_storage_as_sockaddr(address)) { request, status in
                guard let request else { return }
                let connector = Unmanaged<TCPConnector>.fromOpaque(request.pointee.data).takeRetainedValue()
                request.deallocate()
                connector.attemptEnded(status: status)
            }
        }
        if status < 0 {
            resolveRequest = nil
            Unmanaged<TCPConnector>.fromOpaque(request.pointee.data).release()
            request.deallocate()
            attempt = nil
            connection.close()
            lastError = UVError(operation: "uv_tcp_connect", code: status)
            // Not from inside this call: the caller may be `begin()`, still inside `connect`.
            loop.execute { [self] in tryNextAddress() }
        }
    }

    private func attemptEnded(status: Int32) {
        loop.assertInLoop()
        guard state == .connecting, let connection = attempt else { return }  // cancelled: the socket is closed
        attempt = nil
        if status == 0 {
            connection.configure()
            return finish(.success(connection))
        }
        connection.close()
        let error = UVError(operation: "uv_tcp_connect", code: status)
        // Cancelled from outside (the loop is stopping and closed the socket): no further attempt.
        if status == Int32(UV_ECANCELED.rawValue) { return finish(.failure(error)) }
        lastError = error
        tryNextAddress()
    }

    // MARK: Finishing

    /// Reports a failure found before anything asynchronous started, from a later loop job.
    private func finishLater(_ error: UVError) {
        state = .connecting  // not `resolving`: a resolver callback can no longer come
        loop.execute { [self] in
            guard state != .finished else { return }
            finish(.failure(error))
        }
    }

    private func finish(_ result: Result<TCPConnection, UVError>) {
        state = .finished
        if let resolveRequest {
            // Its callback still comes (with UV_EAI_CANCELED when the lookup had not started) and frees the request.
            _ = uv_cancel(UnsafeMutableRawPointer(resolveRequest).assumingMemoryBound(to: uv_req_t.self))
        }
        if let attempt {
            self.attempt = nil
            attempt.close()
        }
        addresses = []
        let completion = self.completion
        self.completion = nil
        completion?(result)
    }
}

extension TCPConnection {
    /// Connects to `host:port`: an IPv4 or IPv6 literal (IPv6 without brackets), or a host name resolved with
    /// `getaddrinfo` (e.g. `"localhost"`), each resolved address tried in order until one accepts.
    ///
    /// Call on `loop`'s thread. `completion` is called exactly once, on that thread, and never before this returns:
    /// with an open connection (not yet reading, `TCP_NODELAY` set), or with the error — `uv_getaddrinfo` (the name
    /// does not resolve, e.g. `EAI_NONAME`), `uv_tcp_connect` (the last address's error, e.g. `ECONNREFUSED`),
    /// `connect` with `EINVAL` for a port outside 0–65535, or `connect` with `ECANCELED` after
    /// ``TCPConnector/cancel()``. There is no timeout here; the owner cancels when it has waited long enough.
    /// - Returns: the connector, to cancel it.
    @discardableResult
    public static func connect(
        on loop: EventLoop, host: String, port: Int, completion: @escaping (Result<TCPConnection, UVError>) -> Void
    ) -> TCPConnector {
        loop.assertInLoop()
        let connector = TCPConnector(loop: loop, host: host, port: port, completion: completion)
        connector.begin()
        return connector
    }
}
