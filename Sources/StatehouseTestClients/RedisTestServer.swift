import Foundation
import Glibc
import Locking

/// A real `redis-server` for one test: a child process on a unix socket in a temporary directory (and a TCP port on
/// 127.0.0.1 when asked), with no RDB snapshots and, unless asked, no append-only file.
///
/// ```swift
/// let redis = try RedisTestServer.start()
/// defer { redis.stop() }
/// let endpoint = try RedisEndpoint(url: redis.endpointURL)
/// ```
/// ``start(appendOnly:dir:)`` returns once the server answers `PING` (polled with a 10 s deadline), so the socket is
/// ready. ``kill()`` is a crash (SIGKILL), ``restart()`` brings the same server back on the same socket and
/// directory (its append-only file, when on, is replayed: recovery tests), ``stop()`` ends it and removes the
/// directory it made. The server logs to `redis.log` in ``dir``; a failed start includes its last lines.
///
/// ## Thread safety
/// `@unchecked Sendable`: one test drives it; its members must not be called concurrently.
public final class RedisTestServer: @unchecked Sendable {
    /// The directory holding the socket, the log and the append-only files.
    public let dir: String
    /// The unix socket's path.
    public let socketPath: String
    /// The TCP port on 127.0.0.1, or nil when the server listens on the unix socket only.
    public let tcpPort: Int?
    /// Whether the append-only file is on (`appendfsync always`: an acknowledged write survives ``kill()``).
    public let appendOnly: Bool
    private let ownsDir: Bool
    private var process: Process?

    /// The URL to connect to: `redis://127.0.0.1:PORT` when started with a TCP port, else `unix://<socketPath>`.
    public var endpointURL: String {
        if let tcpPort { return "redis://127.0.0.1:\(tcpPort)" }
        return "unix://\(socketPath)"
    }

    /// The unix socket's URL, `unix://<socketPath>` (also when a TCP port is open).
    public var unixURL: String { "unix://\(socketPath)" }

    /// The server's process id while it runs.
    public var pid: Int32? { process.map(\.processIdentifier) }

    private init(dir: String, ownsDir: Bool, tcpPort: Int?, appendOnly: Bool) {
        self.dir = dir
        self.ownsDir = ownsDir
        self.socketPath = dir + "/redis.sock"
        self.tcpPort = tcpPort
        self.appendOnly = appendOnly
    }

    /// Starts a server on a unix socket in `dir` (a new temporary directory when nil), waits until it answers PING.
    /// - Throws: `TestClientError` when `redis-server` is not installed, cannot start, or does not answer in 10 s.
    public static func start(appendOnly: Bool = false, dir: String? = nil) throws -> RedisTestServer {
        try start(tcpPort: nil, appendOnly: appendOnly, dir: dir)
    }

    /// Starts a server listening on 127.0.0.1:`tcpPort` as well as on its unix socket.
    /// - Throws: as ``start(appendOnly:dir:)`` (a port in use is a failed start).
    public static func start(tcpPort: Int, appendOnly: Bool = false, dir: String? = nil) throws -> RedisTestServer {
        try start(tcpPort: Optional(tcpPort), appendOnly: appendOnly, dir: dir)
    }

    private static func start(tcpPort: Int?, appendOnly: Bool, dir: String?) throws -> RedisTestServer {
        let directory: String
        if let dir {
            directory = dir
        } else {
            // Short: a socket path must fit sun_path (108 bytes).
            directory = "/tmp/redis-test-" + UUID().uuidString.prefix(8).lowercased()
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw TestClientError("RedisTestServer: cannot create \(directory): \(error)")
        }
        let server = RedisTestServer(dir: directory, ownsDir: dir == nil, tcpPort: tcpPort, appendOnly: appendOnly)
        do {
            try server.launch()
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    /// SIGKILL, as a crash: nothing is flushed; waits until the process has ended. Idempotent.
    public func kill() {
        guard let process else { return }
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        self.process = nil
    }

    /// Starts the server again on the same socket and directory (after ``kill()`` or ``stop()``, or killing it
    /// first if it runs); returns once it answers PING.
    /// - Throws: as ``start(appendOnly:dir:)``.
    public func restart() throws {
        kill()
        try launch()
    }

    /// Ends the server (`SHUTDOWN NOSAVE`, SIGKILL after 5 s) and removes the directory when ``start(appendOnly:dir:)`` made
    /// it. Idempotent.
    public func stop() {
        if let process, process.isRunning {
            let pid = process.processIdentifier
            // SHUTDOWN rather than SIGTERM: the test runner's threads may block SIGTERM, and a child inherits that
            // mask (redis-server then never sees it). A watchdog kills it if it has not ended within 5 s.
            let exited = Locked(false)
            DispatchQueue.global().asyncAfter(deadline: .now() + 5) {
                exited.withLock { if !$0 { _ = Glibc.kill(pid, SIGKILL) } }
            }
            _ = Self.exchange(socketPath, "*2\r\n$8\r\nSHUTDOWN\r\n$6\r\nNOSAVE\r\n")
            process.waitUntilExit()
            exited.withLock { $0 = true }
        }
        process = nil
        if ownsDir { try? FileManager.default.removeItem(atPath: dir) }
    }

    deinit { stop() }

    private var logPath: String { dir + "/redis.log" }

    private func launch() throws {
        guard let executable = Self.findExecutable("redis-server") else {
            throw TestClientError("RedisTestServer: redis-server is not on PATH (scripts/bootstrap installs it)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "--port", String(tcpPort ?? 0), "--bind", "127.0.0.1",
            "--unixsocket", socketPath, "--unixsocketperm", "700",
            "--save", "", "--appendonly", appendOnly ? "yes" : "no", "--appendfsync", "always",
            "--dir", dir, "--daemonize", "no", "--logfile", logPath,
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw TestClientError("RedisTestServer: cannot start \(executable): \(error)")
        }
        self.process = process
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if Self.ping(socketPath) { return }
            if !process.isRunning { break }
            usleep(5_000)
        }
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        let tail = log.split(separator: "\n").suffix(10).joined(separator: "\n")
        kill()
        throw TestClientError("RedisTestServer: redis-server did not answer PING on \(socketPath) within 10 s; "
                              + "its log ends with:\n\(tail)")
    }

    /// Whether a server on `path` answers `PING` with `+PONG`.
    static func ping(_ path: String) -> Bool {
        exchange(path, "*1\r\n$4\r\nPING\r\n").map { $0.starts(with: Array("+PONG\r\n".utf8)) } ?? false
    }

    /// Sends `request` (RESP2 text) to the server on the unix socket `path` and returns the first bytes of its answer
    /// (up to 64, waiting at most 500 ms; empty when it closed the connection), or nil when it cannot connect. Plain
    /// POSIX sockets: this module does not depend on the Redis module it helps to test.
    static func exchange(_ path: String, _ request: String) -> [UInt8]? {
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 0, tv_usec: 500_000)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { return nil }
        let bytes = Array(request.utf8)
        guard send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { return nil }
        var answer = [UInt8](repeating: 0, count: 64)
        let count = read(socket, &answer, answer.count)
        return count >= 0 ? Array(answer[0..<count]) : nil
    }

    private static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") + ["/usr/bin", "/usr/sbin"] {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
