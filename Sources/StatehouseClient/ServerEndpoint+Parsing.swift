/// The URL grammar of ``ServerEndpoint/init(parsing:)`` (a subset of RFC 3986 §3).
extension ServerEndpoint {
    static func parse(_ url: String) throws(ParseError) -> ServerEndpoint {
        func fail(_ message: String) -> ParseError { ParseError(message: message) }
        guard let schemeEnd = url.range(of: "://") else {
            throw fail("The server URL \"\(url)\" has no scheme; write it as http://host:port.")
        }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        switch scheme {
        case "http", "ws": break
        case "https", "wss":
            throw fail("TLS (\(scheme)://) is not supported yet; use http:// or ws:// (e.g. behind a TLS-terminating proxy).")
        default:
            throw fail("The scheme \"\(scheme)\" is not supported; write the server URL as http://host:port.")
        }
        let rest = url[schemeEnd.upperBound...]
        guard !rest.contains("?"), !rest.contains("#") else {
            throw fail("The server URL \"\(url)\" may not have a query or fragment; give only http://host:port/prefix.")
        }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = String(rest[authorityEnd...])
        guard !authority.contains("@") else {
            throw fail("The server URL may not carry user information; send credentials as a bearer token instead.")
        }
        let host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw fail("The IPv6 host in \"\(url)\" lacks its closing bracket.")
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail("Expected :port after the IPv6 host in \"\(url)\".") }
                portText = after.dropFirst()
            }
            guard host.contains(":"), host.utf8.allSatisfy(isIPv6Byte) else {
                throw fail("Brackets in \"\(url)\" must hold an IPv6 address (hex digits, : and .).")
            }
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            host = parts[0]
            if parts.count == 2 { portText = parts[1] }
            guard host.utf8.allSatisfy(isRegNameByte) else {
                throw fail("The host \"\(host)\" is not a host name or IPv4 address (an IPv6 address goes in brackets).")
            }
        }
        guard !host.isEmpty else { throw fail("The server URL \"\(url)\" has no host; write it as http://host:port.") }
        var port = 80
        if let portText {
            guard let value = Int(portText), portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), (1...65535).contains(value) else {
                throw fail("The port \"\(portText)\" must be a number from 1 to 65535.")
            }
            port = value
        }
        while path.hasSuffix("/") { path.removeLast() }
        guard path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw fail("The path \"\(path)\" must hold visible ASCII only (percent-encode anything else).")
        }
        return ServerEndpoint(host: String(host), port: port, basePath: path)
    }

    /// Hex digits, `:` and `.` (RFC 3986 §3.2.2 IPv6address, an embedded IPv4 included; no zone id).
    private static func isIPv6Byte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: ":"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }

    /// Letters, digits and `-._~` (RFC 3986 §3.2.2 reg-name, unreserved only; IPv4 dotted decimal included).
    private static func isRegNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
