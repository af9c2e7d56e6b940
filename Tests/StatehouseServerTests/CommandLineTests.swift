import Foundation
import StatehouseTestClients
import Testing

extension ServerTests {
    /// The `statehouse` executable as a user runs it: configuration errors, the listening line, signals.
    @Suite struct CommandLineTests {
        /// The `statehouse` built beside this test bundle (so sanitizer builds test their own binary).
        static let binary: URL = {
            let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("statehouse")
            return FileManager.default.isExecutableFile(atPath: beside.path)
                ? beside : packageRoot.appendingPathComponent(".build/debug/statehouse")
        }()

        /// Starts `statehouse` with `arguments` (and `environment` instead of this process's, when given); returns the
        /// process and its stdout/stderr pipes.
        static func launch(_ arguments: [String], environment: [String: String]? = nil) throws -> (Process, Pipe, Pipe) {
            guard FileManager.default.isExecutableFile(atPath: binary.path) else {
                throw TestFailure("\(binary.path) is missing; run `swift build` (make test does) first")
            }
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.currentDirectoryURL = packageRoot
            if let environment { process.environment = environment }
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            return (process, out, err)
        }

        /// Starts `statehouse serve` on a free port; returns the process, the port from its "listening" line, and its
        /// stderr pipe. Stops the process when no such line comes.
        static func serve(_ configPath: String, environment: [String: String]? = nil) throws -> (Process, UInt16, Pipe) {
            let (process, out, err) = try launch(["serve", "--config", configPath, "--port", "0"], environment: environment)
            do {
                let line = try readLine(out.fileHandleForReading)
                guard let port = UInt16(line.split(separator: ":").last ?? "") else {
                    throw TestFailure("no port in the listening line: \(line)")
                }
                return (process, port, err)
            } catch {
                stop(process)
                throw error
            }
        }

        static func writeConfig(_ json: String) throws -> String {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("statehouse-\(UUID()).json")
            try Data(json.utf8).write(to: url)
            return url.path
        }

        @Test(arguments: [
            (#"{"stores":[{"name":"a","reducer":"Nope"}]}"#, "stores[0].reducer"),
            (#"{"stores":[{"name":"a","reducer":"Counter"},{"name":"a","reducer":"Counter"}]}"#, "stores[1].name"),
            (#"{"stores":[{"name":"a b","reducer":"Counter"}]}"#, "stores[0].name"),
            (#"{"stores":[{"name":"a","reducer":"Counter","state":{"count":"x"}}]}"#, "stores[0].state"),
            (#"{"stores":[}"#, "not valid JSON"),
            (#"{"stores":[{"name":"a","reducer":"Counter"},]}"#, "at byte 44"),  // trailing comma, and where
            (#"{"listen":{"port":70000},"stores":[]}"#, "listen.port"),
            (#"{"stores":[],"limts":{}}"#, "limts"),
            (#"{"listen":{"host":"example.com"},"stores":[]}"#, "listen.host"),
            (#"{"stores":[{"name":"a","reducer":"Counter","state":null}]}"#, "not null"),
        ])
        func badConfigurationExitsTwoWithOneLine(json: String, mentions: String) throws {
            let path = try Self.writeConfig(json)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let (process, _, err) = try Self.launch(["serve", "--config", path, "--port", "0"])
            process.waitUntilExit()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 2)
            let lines = stderr.split(separator: "\n")
            #expect(lines.count == 1)
            #expect(stderr.contains(path))
            #expect(stderr.contains(mentions))
        }

        @Test func servesTheConfigThenExitsZeroOnSIGTERMClosingWebSocketsWith1001() throws {
            let path = try Self.writeConfig(
                #"{"listen":{"host":"127.0.0.1","port":8080},"stores":[{"name":"counter","reducer":"Counter","state":{"count":41}}]}"#)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let (process, out, _) = try Self.launch(["serve", "--config", path, "--port", "0"])
            defer { Self.stop(process) }
            let line = try Self.readLine(out.fileHandleForReading)
            let prefix = "statehouse listening on http://127.0.0.1:"
            #expect(line.hasPrefix(prefix))
            let port = try #require(UInt16(line.dropFirst(prefix.count)))

            let ws = try TestWebSocketClient(port: port, path: "/stores/counter/ws")
            defer { ws.close() }
            #expect((try ws.receiveJSON(timeout: .seconds(5))["state"] as? [String: Any])?["count"] as? Int == 41)
            let curl = try TestCurl.run(["-s", "-d", #"{"type":"increment"}"#, "http://127.0.0.1:\(port)/stores/counter/actions"])
            #expect(curl.stdout == #"{"store":"counter","version":1,"state":{"count":42}}"#)
            #expect(try ws.receiveJSON(timeout: .seconds(5))["version"] as? Int == 1)
            kill(process.processIdentifier, SIGTERM)
            #expect(try ws.receiveClose(timeout: .seconds(5)) == 1001)
            process.waitUntilExit()
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 0)
        }

        @Test(arguments: [["serve", "--bogus"], ["serve", "--host", "example.com"], ["serve", "--port", "x"], ["dance"]])
        func badUsageExitsTwo(arguments: [String]) throws {
            let (process, _, err) = try Self.launch(arguments)
            process.waitUntilExit()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 2)
            #expect(stderr.hasPrefix("statehouse: "))
            #expect(stderr.split(separator: "\n").count == 1)
        }

        /// Tokens never appear in logs: with debug logging, requests carrying a token in the query and in the
        /// Authorization field are logged by method and path only.
        @Test func tokensNeverReachTheLog() throws {
            let token = "very-secret-token-0123456789"
            let path = try Self.writeConfig(
                #"{"auth":[{"token":"\#(token)","scopes":["read","write"]}],"stores":[{"name":"counter","reducer":"Counter"}]}"#)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let (process, port, err) = try Self.serve(path, environment: ["STATEHOUSE_LOG": "debug"])
            defer { Self.stop(process) }
            let client = try TestHTTPClient(port: port)
            #expect(try client.request("GET", "/stores/counter?access_token=\(token)").status == 200)
            #expect(try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#,
                fields: [("Authorization", "Bearer \(token)")]).status == 200)
            #expect(try client.request("GET", "/stores/counter?access_token=wrong-\(token)").status == 401)
            client.close()
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(log.contains("GET /stores/counter"))
            #expect(!log.contains(token))
        }

        /// `STATEHOUSE_LOG` that names no level: one warning saying so, then info-level lines (no request lines).
        @Test func badLogLevelIsWarnedAboutThenInfoIsUsed() throws {
            let path = try Self.writeConfig(#"{"stores":[{"name":"counter","reducer":"Counter"}]}"#)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let (process, port, err) = try Self.serve(path, environment: ["STATEHOUSE_LOG": "loud"])
            defer { Self.stop(process) }
            let client = try TestHTTPClient(port: port)
            #expect(try client.request("GET", "/stores/counter").status == 200)
            client.close()
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            let lines = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
            #expect(lines.first?.hasSuffix(
                " warning STATEHOUSE_LOG=loud is not a level; using info (levels: debug, info, warning, error)") == true)
            #expect(lines.contains { $0.contains(" info serving 1 store(s) [counter]") })
            #expect(!lines.contains { $0.contains(" debug ") }, "\(lines)")
        }

        /// A port in use: exit 1 with one line that says what to do.
        @Test func aBusyPortSaysToPickAnother() throws {
            let path = try Self.writeConfig(#"{"stores":[]}"#)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let (first, port, _) = try Self.serve(path)
            defer { Self.stop(first) }
            let (second, _, err) = try Self.launch(["serve", "--config", path, "--port", String(port)])
            defer { Self.stop(second) }
            second.waitUntilExit()
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(second.terminationStatus == 1)
            #expect(text.split(separator: "\n").count == 1)
            #expect(text.contains("cannot listen on 127.0.0.1:\(port)") && text.contains("--port"), "\(text)")
        }

        @Test func helpPrintsUsage() throws {
            let (process, out, _) = try Self.launch(["--help"])
            process.waitUntilExit()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 0)
            #expect(text.contains("statehouse serve [--config PATH] [--host HOST] [--port PORT]"))
        }

        /// Makes sure a server started by a test is gone: SIGTERM, then SIGKILL if it is still there after 2 s.
        static func stop(_ process: Process) {
            guard process.isRunning else { return }
            process.terminate()
            let deadline = Date().addingTimeInterval(2)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }

        /// Reads one line from `handle`, failing after 10 s.
        static func readLine(_ handle: FileHandle) throws -> String {
            var bytes: [UInt8] = []
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                bytes += chunk
                if let newline = bytes.firstIndex(of: 10) { return String(decoding: bytes[..<newline], as: UTF8.self) }
            }
            throw TestFailure("no line from the server: \(String(decoding: bytes, as: UTF8.self))")
        }
    }
}
