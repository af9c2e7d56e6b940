import Foundation
import Locking
import StatehouseServer
import Testing

/// Where test servers log: a file per server under `.build/test-logs/`, named after the running test, so `make test`
/// prints no server log. ``TestServer/with(configure:_:)`` prints the file's path when its body throws; for a failed
/// `#expect` (Swift Testing has no "this test failed" hook) the file is there to read, under the test's name.
enum TestLogs {
    static let directory = packageRoot.appendingPathComponent(".build/test-logs")
    private static let serial = Locked(0)

    /// A logger at `.info` writing to a new file named after the current test (`Suite.test()-N.log`).
    static func logger(level: Logger.Level = .info) -> (logger: Logger, path: String) {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let number = serial.withLock { value -> Int in
            value += 1
            return value
        }
        let name = (Test.current.map { "\($0.id)" } ?? "unnamed")
            .map { $0.isLetter || $0.isNumber || "._-()".contains($0) ? $0 : "_" }
        let path = directory.appendingPathComponent("\(String(name.suffix(150)))-\(number).log").path
        try? FileManager.default.removeItem(atPath: path)
        guard let handler = try? FileLogHandler(path: path) else {
            return (Logger(level: level), "standard error")  // no file: log as the server would
        }
        return (Logger(level: level, handler: handler), path)
    }

    /// Runs `body`; when it throws, prints where the server's log is, then rethrows.
    static func printingLog<T>(_ path: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            FileHandle.standardError.write(Data("server log of the failed test: \(path)\n".utf8))
            throw error
        }
    }
}
