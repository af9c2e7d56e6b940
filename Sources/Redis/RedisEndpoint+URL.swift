extension RedisEndpoint {
    /// The accepted forms, as error messages state them.
    static let acceptedForms =
        "use redis://HOST[:PORT][/DB] (default port 6379, database 0) or unix:///path/to/socket[?db=DB] "
        + "(also redis+unix:///path/to/socket)"

    /// Reads `redis://HOST[:PORT][/DB]`, `unix:///path/to/socket[?db=DB]` or `redis+unix:///path/to/socket[?db=DB]`.
    ///
    /// `HOST` is a name, an IPv4 address or an IPv6 address in brackets (`redis://[::1]:6380`); `PORT` is 1...65535
    /// (default 6379); `DB` is a database index >= 0 (default 0). A unix socket path must be absolute.
    /// - Throws: ``RedisError`` of kind ``RedisError/Kind/invalidURL`` whose message names the problem and the
    ///   accepted forms, e.g. `invalid Redis URL "redis://h:0": the port must be 1...65535; use redis://HOST[:PORT]...`.
    public init(url: String) throws(RedisError) {
        func invalid(_ problem: String) -> RedisError {
            RedisError(.invalidURL, "invalid Redis URL \"\(url)\": \(problem); \(Self.acceptedForms)")
        }
        if let rest = Self.dropPrefix(url, ["unix://", "redis+unix://"]) {
            var path = Substring(rest)
            var database = 0
            if let question = path.firstIndex(of: "?") {
                let query = path[path.index(after: question)...]
                path = path[..<question]
                guard query.hasPrefix("db="), let index = Int(query.dropFirst(3)), index >= 0 else {
                    throw invalid("the only query a unix socket URL takes is db=DB, a database index >= 0")
                }
                database = index
            }
            guard path.hasPrefix("/") else { throw invalid("the socket path must be absolute (unix:///path)") }
            guard path.utf8.count <= 107 else { throw invalid("the socket path is longer than 107 bytes") }
            self.init(address: .unix(path: String(path)), database: database)
            return
        }
        guard let rest = Self.dropPrefix(url, ["redis://"]) else {
            if url.hasPrefix("rediss://") { throw invalid("TLS (rediss://) is not supported") }
            throw invalid("the scheme must be redis://, unix:// or redis+unix://")
        }
        guard !rest.contains("@") else { throw invalid("credentials (user:password@) are not supported") }
        guard !rest.contains("?") else { throw invalid("a redis:// URL takes no query; give the database as /DB") }
        var authority = Substring(rest)
        var database = 0
        if let slash = authority.firstIndex(of: "/") {
            let path = authority[authority.index(after: slash)...]
            authority = authority[..<slash]
            if !path.isEmpty {
                guard let index = Int(path), index >= 0 else {
                    throw invalid("the database must be an index >= 0 (redis://HOST:PORT/DB)")
                }
                database = index
            }
        }
        let host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw invalid("an IPv6 host needs its closing ]") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw invalid("only :PORT may follow an IPv6 host") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { throw invalid("the host is missing") }
        var port = 6379
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw invalid("the port must be 1...65535")
            }
            port = number
        }
        self.init(address: .tcp(host: String(host), port: port), database: database)
    }

    /// `text` without the first of `prefixes` it starts with (compared without regard to case), or nil.
    private static func dropPrefix(_ text: String, _ prefixes: [String]) -> String? {
        let lowered = text.lowercased()
        for prefix in prefixes where lowered.hasPrefix(prefix) {
            return String(text.dropFirst(prefix.count))
        }
        return nil
    }
}
