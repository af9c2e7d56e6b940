import Foundation
import StatehouseTestClients
import Locking

/// Tests/Support/chaos_proxy.py as a child process: a TCP proxy on loopback that cuts and stalls connections on
/// command. Commands go to its stdin; ``command(_:)`` waits for the `ok` line that confirms each one.
///
/// ## Thread safety
/// Thread-safe: lines are collected by the pipe's reader under a lock; commands are sent from any thread.
final class ChaosProxy: @unchecked Sendable {
    let port: UInt16
    private let process = Process()
    private let input = Pipe()
    private let lines = Locked(Lines())

    private struct Lines {
        var all: [String] = []
        var partial = ""
    }

    /// Starts the proxy in front of `upstream` and waits (up to 10 s) for its `listening <port>` line.
    private init(upstream: Int) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("Tests/Support/chaos_proxy.py").path,
                             "--upstream", String(upstream)]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.standardError
        let lines = self.lines
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else { return }
            lines.withLock { lines in
                lines.partial += String(decoding: data, as: UTF8.self)
                while let newline = lines.partial.firstIndex(of: "\n") {
                    lines.all.append(String(lines.partial[..<newline]))
                    lines.partial.removeSubrange(...newline)
                }
            }
        }
        try process.run()
        var found: UInt16?
        let deadline = ContinuousClock.now + .seconds(10)
        while found == nil, ContinuousClock.now < deadline {
            found = lines.withLock { $0.all.first { $0.hasPrefix("listening ") } }.flatMap { UInt16($0.dropFirst(10)) }
            if found == nil { Thread.sleep(forTimeInterval: 0.01) }  // polling a child's output with a deadline
        }
        guard let found else {
            process.terminate()
            throw ChaosProxyError("chaos_proxy.py printed no 'listening' line within 10 s")
        }
        port = found
    }

    /// Starts the proxy in front of `upstream` off the cooperative pool (it waits for the child's first line).
    static func start(upstream: Int) async throws -> ChaosProxy {
        try await blocking { try ChaosProxy(upstream: upstream) }
    }

    /// Sends one command line and waits (up to 10 s, off the cooperative pool) for its `ok` answer.
    func command(_ line: String) async throws {
        try await blocking { [self] in try commandBlocking(line) }
    }

    private func commandBlocking(_ line: String) throws {
        let before = lines.withLock { $0.all.count }
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        let word = line.split(separator: " ").first.map(String.init) ?? line
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if lines.withLock({ $0.all[before...].contains { $0.hasPrefix("ok \(word)") } }) { return }
            Thread.sleep(forTimeInterval: 0.005)  // polling a child's output with a deadline
        }
        throw ChaosProxyError("chaos_proxy.py did not confirm '\(line)' within 10 s")
    }

    /// How many event lines start with `prefix` (e.g. `"cut "`).
    func count(_ prefix: String) -> Int { lines.withLock { $0.all.filter { $0.hasPrefix(prefix) }.count } }

    /// Ends the proxy (every connection reset) and waits for it.
    func stop() {
        try? input.fileHandleForWriting.write(contentsOf: Data("quit\n".utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

struct ChaosProxyError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
