/// Where a Statehouse server is: host, port and an optional path prefix that every request path goes under.
///
/// Written `http://host:port/prefix` or `ws://host:port/prefix` (both mean the same plain-TCP server; the port
/// defaults to 80). TLS (`https`, `wss`) is not supported yet.
///
/// ## Thread safety
/// A value type (`Sendable`).
public struct ServerEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// A host name (`localhost`, `statehouse.internal`) or an IP literal (IPv6 without brackets, e.g. `::1`).
    public var host: String
    /// The TCP port, 1–65535.
    public var port: Int
    /// `""`, or a prefix such as `/statehouse`: starts with `/`, no trailing `/`.
    public var basePath: String

    /// Creates an endpoint. `basePath` is used as given (`""` or `/prefix` without trailing slash).
    public init(host: String, port: Int, basePath: String = "") {
        self.host = host
        self.port = port
        self.basePath = basePath
    }

    /// Parses `http://host[:port][/prefix]` or `ws://…` (RFC 3986 §3: scheme, authority, path; no user info, query or
    /// fragment). An IPv6 host is written in brackets (`http://[::1]:8080`); a trailing `/` of the path is dropped.
    /// - Throws: ``ParseError`` saying what is wrong, e.g. for `https://` (TLS is not supported yet), a missing host,
    ///   a port outside 1–65535, or a query.
    public init(parsing url: String) throws(ServerEndpoint.ParseError) {
        self = try Self.parse(url)
    }

    /// `http://host:port/prefix` (brackets around an IPv6 host).
    public var description: String { "http://\(authority)\(basePath)" }

    /// `host:port` as written in a URL or a `Host` field (RFC 9110 §7.2): an IPv6 literal in brackets.
    public var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Why a URL is not a server endpoint: one sentence.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong and what to write instead.
        public var message: String

        /// Creates an error.
        public init(message: String) { self.message = message }

        public var description: String { message }
    }
}
