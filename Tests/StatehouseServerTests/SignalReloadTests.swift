import Foundation
import Locking
import StatehouseTestClients
import Testing

extension ServerTests {
    /// The `statehouse` executable's operations side: SIGHUP reloads, JSON log lines, the refusal line at the file
    /// descriptor limit. Each test runs the real binary on port 0 and reads its standard error as it comes.
    @Suite struct SignalReloadTests {
        /// Standard error of a running server, collected line by line on a thread of its own.
        final class LogLines: @unchecked Sendable {
            private let lines = Locked<[String]>([])
            private let done = DispatchSemaphore(value: 0)

            init(_ pipe: Pipe) {
                let handle = pipe.fileHandleForReading
                Thread.detachNewThread { [lines, done] in
                    var pending: [UInt8] = []
                    while true {
                        let chunk = handle.availableData
                        if chunk.isEmpty { break }
                        pending += chunk
                        while let newline = pending.firstIndex(of: 10) {
                            let line = String(decoding: pending[..<newline], as: UTF8.self)
                            pending.removeSubrange(...newline)
                            lines.withLock { $0.append(line) }
                        }
                    }
                    done.signal()
                }
            }

            var all: [String] { lines.withLock { $0 } }

            /// The first line satisfying `predicate`, waiting up to `seconds` for it (polled every 20 ms).
            func wait(seconds: Double = 10, for predicate: (String) -> Bool) throws -> String {
                let deadline = Date().addingTimeInterval(seconds)
                while Date() < deadline {
                    if let line = all.first(where: predicate) { return line }
                    usleep(20_000)
                }
                throw TestFailure("no such log line within \(seconds) s; the log: \(all.joined(separator: "\n"))")
            }

            /// Every line, once the process has closed standard error (exited).
            func untilClosed() -> [String] {
                _ = done.wait(timeout: .now() + 10)
                return all
            }
        }

        static let tokenA = "token-a-0123456789abcdef"
        static let tokenB = "token-b-0123456789abcdef"

        static func config(tokens: [String], extra: String = "") -> String {
            let auth = tokens.map { #"{"token":"\#($0)","scopes":["read","write"]}"# }.joined(separator: ",")
            return #"{"auth":[\#(auth)],\#(extra)"stores":[{"name":"counter","reducer":"Counter"}]}"#
        }

        /// Polls `GET /stores/counter` with `token` until it answers `status` (a reload is applied on each loop in
        /// its own turn), for up to 10 s.
        static func awaitStatus(_ status: Int, port: UInt16, token: String) throws {
            let deadline = Date().addingTimeInterval(10)
            var last = 0
            while Date() < deadline {
                let client = try TestHTTPClient(port: port)
                last = try client.request("GET", "/stores/counter", fields: [("Authorization", "Bearer \(token)")]).status
                client.close()
                if last == status { return }
                usleep(20_000)
            }
            throw TestFailure("GET with the token still answers \(last), not \(status)")
        }

        /// A token refused before is accepted after the file gained it and a SIGHUP; an invalid file then changes
        /// nothing (one error line naming the file) and the server keeps serving; a listen change needs a restart;
        /// SIGTERM still closes WebSockets with 1001 and exits 0. The log is JSON throughout
        /// (`STATEHOUSE_LOG_FORMAT=json`) and never holds a token.
        @Test func sighupReloadsTokensAndKeepsTheOldConfigurationWhenTheFileIsInvalid() throws {
            let path = try CommandLineTests.writeConfig(Self.config(tokens: [Self.tokenA], extra: #""listen":{"eventLoops":2},"#))
            defer { try? FileManager.default.removeItem(atPath: path) }
            var environment = ProcessInfo.processInfo.environment
            environment["STATEHOUSE_LOG_FORMAT"] = "json"
            environment["STATEHOUSE_LOG"] = "info"
            let (process, port, err) = try CommandLineTests.serve(path, environment: environment)
            defer { CommandLineTests.stop(process) }
            let log = LogLines(err)
            try Self.awaitStatus(401, port: port, token: Self.tokenB)
            let socket = try TestWebSocketClient(
                port: port, path: "/stores/counter/ws", extraFields: [("Authorization", "Bearer \(Self.tokenA)")])
            _ = try socket.receiveJSON()  // the first state

            try Data(Self.config(tokens: [Self.tokenA, Self.tokenB], extra: #""log":{"level":"debug"},"#).utf8)
                .write(to: URL(fileURLWithPath: path))
            kill(process.processIdentifier, SIGHUP)
            _ = try log.wait { $0.contains("reload: auth: 1 token → 2 tokens") }
            try Self.awaitStatus(200, port: port, token: Self.tokenB)
            _ = try log.wait { $0.contains("reload: log.level: info → debug") }

            try Data(#"{"stores":[}"#.utf8).write(to: URL(fileURLWithPath: path))
            kill(process.processIdentifier, SIGHUP)
            let refused = try log.wait { $0.contains("keeping the running configuration") }
            #expect(refused.contains(path) && refused.contains("not valid JSON") && refused.contains(#""level":"error""#))
            try Self.awaitStatus(200, port: port, token: Self.tokenB)
            try Self.awaitStatus(401, port: port, token: "token-c-0123456789abcdef")

            try Data(Self.config(tokens: [Self.tokenB], extra: #""listen":{"eventLoops":3},"#).utf8)
                .write(to: URL(fileURLWithPath: path))
            kill(process.processIdentifier, SIGHUP)
            _ = try log.wait { $0.contains("reload: listen.eventLoops: 2 → 3 needs a restart") }
            _ = try log.wait { $0.contains("reload: auth: 2 tokens → 1 token") }
            _ = try log.wait { $0.contains("reload: log.level: debug → info") }
            try Self.awaitStatus(401, port: port, token: Self.tokenA)

            kill(process.processIdentifier, SIGTERM)
            #expect(try socket.receiveClose() == 1001)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let lines = log.untilClosed()
            for line in lines {
                let object = try jsonObject(line)
                #expect(object["time"] is String && object["level"] is String && object["message"] is String, "\(line)")
                #expect(!line.contains(Self.tokenA) && !line.contains(Self.tokenB))
            }
            #expect(lines.contains { $0.contains(#""message":"http GET /stores/counter → 401""#) && $0.contains(#""request_id":"#) })
        }

        /// `STATEHOUSE_LOG_FORMAT` that names no format: exit 2 with one line saying which do.
        @Test func anUnknownLogFormatExitsTwo() throws {
            let path = try CommandLineTests.writeConfig(#"{"stores":[]}"#)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let (process, _, err) = try CommandLineTests.launch(
                ["serve", "--config", path, "--port", "0"], environment: ["STATEHOUSE_LOG_FORMAT": "yaml"])
            process.waitUntilExit()
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 2)
            #expect(text == "statehouse: STATEHOUSE_LOG_FORMAT=yaml is not a log format; use text (the default) or json\n")
        }

        /// Under `ulimit -n 100` the server admits 28 connections (100 less 72 kept); the ones past it get 503 and
        /// one warning names the file descriptor limit and says to raise it.
        @Test func refusalsAtTheFileDescriptorLimitAreLogged() throws {
            let path = try CommandLineTests.writeConfig(#"{"listen":{"eventLoops":1},"stores":[]}"#)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", #"ulimit -n 100 && exec "$0" serve --config "$1" --port 0"#, CommandLineTests.binary.path, path]
            process.environment = ["STATEHOUSE_LOG": "warning"]
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            defer { CommandLineTests.stop(process) }
            let log = LogLines(err)
            let line = try CommandLineTests.readLine(out.fileHandleForReading)
            let port = try #require(UInt16(line.split(separator: ":").last ?? ""))
            var sockets: [TestHTTPClient] = []
            defer { for socket in sockets { socket.close() } }
            var refused = 0
            for _ in 0..<32 {
                let client = try TestHTTPClient(port: port)
                sockets.append(client)
                if (try? client.readResponse(deadline: .now + .milliseconds(100)))?.status == 503 { refused += 1 }
            }
            #expect(refused >= 1)
            let warning = try log.wait { $0.contains("refused") && $0.contains("too_many_connections") }
            #expect(warning.contains("the file descriptor limit allows (ulimit -n 100"), "\(warning)")
            #expect(warning.contains("raise it"))
        }
    }
}
