import Redis
import Testing

@Suite struct RedisEndpointTests {
    @Test(arguments: [
        ("redis://localhost", RedisEndpoint(address: .tcp(host: "localhost", port: 6379))),
        ("redis://localhost:6380", RedisEndpoint(address: .tcp(host: "localhost", port: 6380))),
        ("redis://10.0.0.5:7000/3", RedisEndpoint(address: .tcp(host: "10.0.0.5", port: 7000), database: 3)),
        ("redis://cache/2", RedisEndpoint(address: .tcp(host: "cache", port: 6379), database: 2)),
        ("redis://cache:6379/", RedisEndpoint(address: .tcp(host: "cache", port: 6379))),
        ("REDIS://cache", RedisEndpoint(address: .tcp(host: "cache", port: 6379))),
        ("redis://[::1]:6390/1", RedisEndpoint(address: .tcp(host: "::1", port: 6390), database: 1)),
        ("redis://[::1]", RedisEndpoint(address: .tcp(host: "::1", port: 6379))),
        ("unix:///run/redis/redis.sock", RedisEndpoint(address: .unix(path: "/run/redis/redis.sock"))),
        ("redis+unix:///tmp/r.sock", RedisEndpoint(address: .unix(path: "/tmp/r.sock"))),
        ("unix:///tmp/r.sock?db=4", RedisEndpoint(address: .unix(path: "/tmp/r.sock"), database: 4)),
    ])
    func goodForms(url: String, expected: RedisEndpoint) throws {
        #expect(try RedisEndpoint(url: url) == expected)
    }

    @Test func descriptionReadsBack() throws {
        for url in ["redis://cache:6379", "redis://cache:6380/2", "redis://[::1]:6379/1", "unix:///tmp/r.sock",
                    "unix:///tmp/r.sock?db=3"] {
            let endpoint = try RedisEndpoint(url: url)
            #expect(endpoint.description == url)
            #expect(try RedisEndpoint(url: endpoint.description) == endpoint)
        }
    }

    @Test(arguments: [
        ("", "the scheme must be redis://, unix:// or redis+unix://"),
        ("http://cache:6379", "the scheme must be redis://, unix:// or redis+unix://"),
        ("cache:6379", "the scheme must be redis://, unix:// or redis+unix://"),
        ("rediss://cache", "TLS (rediss://) is not supported"),
        ("redis://", "the host is missing"),
        ("redis://:6379", "the host is missing"),
        ("redis://cache:0", "the port must be 1...65535"),
        ("redis://cache:65536", "the port must be 1...65535"),
        ("redis://cache:port", "the port must be 1...65535"),
        ("redis://cache:", "the port must be 1...65535"),
        ("redis://cache/x", "the database must be an index >= 0"),
        ("redis://cache/-1", "the database must be an index >= 0"),
        ("redis://user:secret@cache", "credentials (user:password@) are not supported"),
        ("redis://cache?db=1", "a redis:// URL takes no query"),
        ("redis://[::1", "an IPv6 host needs its closing ]"),
        ("redis://[::1]6379", "only :PORT may follow an IPv6 host"),
        ("unix://relative.sock", "the socket path must be absolute"),
        ("unix://", "the socket path must be absolute"),
        ("unix:///tmp/r.sock?database=1", "the only query a unix socket URL takes is db=DB"),
        ("unix:///" + String(repeating: "a", count: 120), "the socket path is longer than 107 bytes"),
    ])
    func badForms(url: String, problem: String) {
        #expect {
            try RedisEndpoint(url: url)
        } throws: { error in
            guard let error = error as? RedisError else { return false }
            return error.kind == .invalidURL && error.message.contains("invalid Redis URL \"\(url)\": \(problem)")
                && error.message.contains("use redis://HOST[:PORT][/DB] (default port 6379, database 0) or "
                                          + "unix:///path/to/socket[?db=DB]")
        }
    }
}
