import Foundation
import Redis
import StatehouseTestClients

/// Starts a Redis server, runs `body` on a thread of its own (blocking calls stay off Swift's cooperative pool) with
/// the server and a connection to it, and always stops the server.
func withRedis<T: Sendable>(
    appendOnly: Bool = false, _ body: @escaping @Sendable (RedisTestServer, RedisConnection) throws -> T
) async throws -> T {
    try await blocking {
        let redis = try RedisTestServer.start(appendOnly: appendOnly)
        defer { redis.stop() }
        let connection = try RedisConnection(try RedisEndpoint(url: redis.endpointURL))
        defer { connection.close() }
        return try body(redis, connection)
    }
}

/// Polls `condition` every 5 ms until it holds or `timeoutMs` passes; returns whether it held (a deadline, not a
/// delay).
func eventually(timeoutMs: Int = 5000, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(Double(timeoutMs) / 1000)
    while Date() < deadline {
        if try condition() { return true }
        usleep(5_000)
    }
    return try condition()
}

/// Throws `message` unless `condition` holds: a check inside a `blocking` body (the thrown error fails the test).
func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw TestClientError(message()) }
}

/// A TCP port on 127.0.0.1 that nothing listened on a moment ago (bound to port 0, read back, closed).
func unusedTCPPort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw TestClientError("socket failed") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else { throw TestClientError("bind failed") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

extension Array where Element == UInt8 {
    /// The UTF-8 bytes of `text`.
    init(utf8 text: String) { self = Array(text.utf8) }
}

/// The kind of the `RedisError` that `body` throws, or nil when it returns.
func failureKind<T>(_ body: () throws(RedisError) -> T) -> RedisError.Kind? {
    do {
        _ = try body()
        return nil
    } catch {
        return error.kind
    }
}
