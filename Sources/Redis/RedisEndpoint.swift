/// Where a Redis server listens: `redis://HOST:PORT[/DB]` (default port 6379) or `unix:///path/to/socket`
/// (also `redis+unix:///path`). Database index selects with SELECT after connecting.
///
/// A unix socket URL may give the database as a query, `unix:///path/to/socket?db=2`. Credentials
/// (`redis://user:password@host`) and TLS (`rediss://`) are not supported.
///
/// ## Thread safety
/// An immutable value (`Sendable`).
public struct RedisEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// A TCP host and port, or the path of a unix domain socket.
    public enum Address: Sendable, Equatable {
        /// `host` is a name or a numeric IPv4/IPv6 address (without brackets); `port` is 1...65535.
        case tcp(host: String, port: Int)
        /// The socket file's path (at most 107 bytes, the size of `sun_path` less its NUL).
        case unix(path: String)
    }

    /// The server's address.
    public var address: Address
    /// The database index selected with `SELECT` after connecting when not 0 (Redis has 16 by default, 0...15).
    /// Pub/sub channels do not depend on it.
    public var database: Int

    /// An endpoint at `address`, using database `database`.
    public init(address: Address, database: Int = 0) {
        self.address = address
        self.database = database
    }

    /// The endpoint as a URL that ``init(url:)`` reads back: `redis://host:port[/db]` (an IPv6 host in brackets) or
    /// `unix:///path[?db=N]`.
    public var description: String {
        switch address {
        case .tcp(let host, let port):
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return "redis://\(shownHost):\(port)" + (database == 0 ? "" : "/\(database)")
        case .unix(let path):
            return "unix://\(path)" + (database == 0 ? "" : "?db=\(database)")
        }
    }
}
