internal import CLibUV

/// What an operator's view of a connection shows (the server's inspector): the peer's address and the connection's
/// age. Nothing here runs on the I/O path: the address is asked of the kernel only when read.
extension TCPConnection {
    /// The peer's address as `host:port` (`127.0.0.1:50312`), or `[host]:port` for IPv6 (`[::1]:50312`, RFC 3986
    /// §3.2.2); nil once the socket is closed or when the kernel does not know it (`uv_tcp_getpeername` failed).
    /// One system call per read.
    public var peerAddress: String? {
        loop.assertInLoop()
        guard state != .closed else { return nil }
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutableBytes(of: &storage) { raw -> String? in
            let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)
            guard uv_tcp_getpeername(handle, address, &length) == 0 else { return nil }
            var text = [CChar](repeating: 0, count: 64)
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                let ipv4 = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                guard uv_ip4_name(ipv4, &text, text.count) == 0 else { return nil }
                return "\(Self.string(text)):\(UInt16(bigEndian: ipv4.pointee.sin_port))"
            case AF_INET6:
                let ipv6 = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                guard uv_ip6_name(ipv6, &text, text.count) == 0 else { return nil }
                return "[\(Self.string(text))]:\(UInt16(bigEndian: ipv6.pointee.sin6_port))"
            default:
                return nil
            }
        }
    }

    /// Milliseconds since the connection was accepted (or connected), by the loop's clock (`EventLoop.now`).
    public var ageMs: UInt64 {
        let now = loop.now  // asserts the loop
        return now > openedAt ? now - openedAt : 0
    }

    private static func string(_ text: [CChar]) -> String {
        String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
