import Foundation

/// The process's file descriptor limit (`RLIMIT_NOFILE`, what `ulimit -n` shows) and the connections it leaves room
/// for.
///
/// Every connection holds one descriptor, so a server whose `limits.maxConnections` is above what the limit allows
/// would fail `accept` with `EMFILE`, and libuv then closes the waiting connections without a word. The server
/// therefore raises the soft limit to the hard one at start (POSIX `setrlimit`), keeps ``reserved`` descriptors for
/// listeners, loops, logs and files, and lets in at most ``connectionLimit`` connections: past that, accept still
/// succeeds and the client is answered `503` with `Retry-After`.
struct FileDescriptorLimit: Sendable, Equatable {
    /// The soft limit after ``raised()``, and before.
    var soft: Int
    var softBefore: Int
    /// The hard limit (the most an unprivileged process may raise its soft limit to).
    var hard: Int

    /// Descriptors kept out of the connection budget, half of them for the process itself (stdio, each loop's epoll,
    /// wake-up, signal and listening descriptors, libuv's spare, files), half for connections being refused, which
    /// each hold one while their `503` is written and the client closes (``refusalLimit(eventLoops:)``).
    static func reserved(eventLoops: Int) -> Int { 64 + 8 * eventLoops }

    /// Connections the soft limit leaves room for, with `eventLoops` loops (at least 1).
    func connectionLimit(eventLoops: Int) -> Int { max(1, soft - Self.reserved(eventLoops: eventLoops)) }

    /// Refused connections that may wait for their client to close at once; past that, a refused connection is
    /// closed right after its `503` is handed to the kernel.
    static func refusalLimit(eventLoops: Int) -> Int { reserved(eventLoops: eventLoops) / 2 }

    /// Raises the soft limit to the hard limit (never lowers it) and returns both. When the limit cannot be read,
    /// returns `nil`; when it cannot be raised, the soft limit as it is.
    static func raised() -> FileDescriptorLimit? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        let before = limit.rlim_cur
        if limit.rlim_cur < limit.rlim_max {
            var wanted = limit
            wanted.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &wanted) == 0 { limit = wanted }
        }
        return FileDescriptorLimit(
            soft: Self.clamped(limit.rlim_cur), softBefore: Self.clamped(before), hard: Self.clamped(limit.rlim_max))
    }

    /// `RLIM_INFINITY` and values past `Int.max` as `Int.max`.
    private static func clamped(_ value: rlim_t) -> Int {
        value >= rlim_t(Int.max) ? Int.max : Int(value)
    }
}
