import Foundation
import StatehouseServer
import StatehouseTestClients
import Testing

extension ServerTests {
    /// `statehouse stores/get/send/watch` as a user runs them: the built binary as a subprocess against a real server
    /// on port 0, piped (one JSON document per line) and, once, on a pseudo-terminal (`script`).
    @Suite struct ClientCommandTests {
        /// What one finished command printed.
        struct Outcome: Sendable {
            var status: Int32
            var stdout: String
            var stderr: String
            /// Standard output's lines.
            var lines: [String] { stdout.split(separator: "\n").map(String.init) }
        }

        /// Runs `statehouse arguments` against `port` (or no `--url` when nil) with a clean environment plus
        /// `environment`, feeding `stdin`; waits at most 20 s for it to exit.
        static func run(
            _ arguments: [String], port: UInt16?, environment: [String: String] = [:], stdin: String? = nil
        ) async throws -> Outcome {
            let url = port.map { ["--url", "http://127.0.0.1:\($0)"] } ?? []
            return try await blocking {
                let (process, out, err, input) = try launch(arguments + url, environment: environment)
                if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
                try? input.fileHandleForWriting.close()
                return try outcome(of: process, out: out, err: err, what: "statehouse \(arguments)")
            }
        }

        /// Waits at most 20 s for `process` to exit (stopping it and throwing if it does not), then reads what it wrote.
        static func outcome(of process: Process, out: Pipe, err: Pipe, what: String) throws -> Outcome {
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning, Date() < deadline { usleep(5_000) }
            guard !process.isRunning else {
                CommandLineTests.stop(process)
                throw TestFailure("\(what) did not exit within 20 s")
            }
            return Outcome(
                status: process.terminationStatus,
                stdout: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                stderr: String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }

        /// Starts the binary with piped stdin, stdout and stderr and only `PATH` plus `environment` (so a developer's
        /// STATEHOUSE_URL or STATEHOUSE_TOKEN does not leak in).
        static func launch(_ arguments: [String], environment: [String: String] = [:]) throws -> (Process, Pipe, Pipe, Pipe) {
            let binary = CommandLineTests.binary
            guard FileManager.default.isExecutableFile(atPath: binary.path) else {
                throw TestFailure("\(binary.path) is missing; run `swift build` (make test does) first")
            }
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
                .merging(environment) { $1 }
            let out = Pipe(), err = Pipe(), input = Pipe()
            process.standardOutput = out
            process.standardError = err
            process.standardInput = input
            try process.run()
            return (process, out, err, input)
        }

        @Test func storesListsOneCompactLinePerStore() async throws {
            try await TestServer.with { server in
                let outcome = try await Self.run(["stores"], port: server.port)
                #expect(outcome.status == 0, "\(outcome.stderr)")
                #expect(outcome.lines == [
                    #"{"name":"counter","reducer":"Counter","version":0}"#,
                    #"{"name":"search","reducer":"Search","version":0}"#,
                    #"{"name":"todos","reducer":"TodoList","version":0}"#,
                ])
                #expect(outcome.stderr.isEmpty)
            }
        }

        @Test func getPrintsTheStateAndAPathOfIt() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                _ = try client.request("POST", "/stores/todos/actions", body: #"{"type":"add","payload":{"text":"milk"}}"#)
                let whole = try await Self.run(["get", "todos"], port: server.port)
                #expect(whole.lines == [#"{"store":"todos","version":1,"state":{"items":[{"done":false,"id":1,"text":"milk"}],"nextID":2}}"#])
                let part = try await Self.run(["get", "todos", "--path", "/items/0/text"], port: server.port)
                #expect(part.status == 0)
                #expect(part.lines == [#"{"store":"todos","version":1,"path":"/items/0/text","state":"milk"}"#])
                let missing = try await Self.run(["get", "todos", "--path", "/items/7"], port: server.port)
                #expect(missing.lines == [#"{"store":"todos","version":1,"path":"/items/7","state":null}"#])
                let bad = try await Self.run(["get", "todos", "--path", "items"], port: server.port)
                #expect(bad.status == 2)
                #expect(bad.stderr.contains("JSON Pointer"))
            }
        }

        @Test func sendPrintsTheVersionAndReadsStdinAndKeys() async throws {
            try await TestServer.with { server in
                let first = try await Self.run(["send", "counter", #"{"type":"add","payload":{"amount":5}}"#], port: server.port)
                #expect(first.status == 0, "\(first.stderr)")
                #expect(first.lines == [#"{"store":"counter","version":1,"state":{"count":5}}"#])
                // From stdin with an idempotency key, twice: the second is the first outcome again.
                for _ in 0..<2 {
                    let keyed = try await Self.run(
                        ["send", "counter", "-", "--id", "k-1"], port: server.port, stdin: #"{"type":"increment"}"# + "\n")
                    #expect(keyed.lines == [#"{"store":"counter","version":2,"state":{"count":6}}"#], "\(keyed.stderr)")
                }
                let settled = try await Self.run(
                    ["send", "counter", #"{"type":"incrementLater","payload":{"ms":20}}"#, "--wait", "settled"], port: server.port)
                #expect(settled.lines == [#"{"store":"counter","version":3,"state":{"count":7}}"#], "\(settled.stderr)")
            }
        }

        @Test func aRefusalPrintsTheServersMessageAndExitsOne() async throws {
            try await TestServer.with { server in
                let unknownType = try await Self.run(["send", "counter", #"{"type":"nope"}"#], port: server.port)
                #expect(unknownType.status == 1)
                #expect(unknownType.stdout.isEmpty)
                #expect(unknownType.stderr.hasPrefix(#"statehouse: Unknown action type "nope""#), "\(unknownType.stderr)")
                #expect(unknownType.stderr.hasSuffix("(HTTP 400 invalid_action)\n"))
                let noStore = try await Self.run(["get", "nope"], port: server.port)
                #expect(noStore.status == 1)
                #expect(noStore.stderr.contains("store_not_found"))
                let noStoreWatch = try await Self.run(["watch", "nope"], port: server.port)
                #expect(noStoreWatch.status == 1)
                #expect(noStoreWatch.stderr.contains("HTTP 404 store_not_found"), "\(noStoreWatch.stderr)")
            }
        }

        /// watch prints the snapshot, then one line per version another client makes; killed afterwards.
        @Test func watchPrintsEachVersionPushedByAnotherClient() async throws {
            try await TestServer.with { server in
                let lines = try await blocking { () throws -> [String] in
                    let (process, out, _, _) = try Self.launch(
                        ["watch", "counter", "--format", "patch", "--url", "http://127.0.0.1:\(server.port)"])
                    defer { CommandLineTests.stop(process) }
                    let reader = LineReader(out.fileHandleForReading)
                    var lines = [try reader.next()]
                    let client = try TestHTTPClient(port: server.port)
                    defer { client.close() }
                    _ = try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#)
                    lines.append(try reader.next())
                    _ = try client.request("POST", "/stores/counter/actions", body: #"{"type":"add","payload":{"amount":2}}"#)
                    lines.append(try reader.next())
                    return lines
                }
                let messages = try lines.map(jsonObject)
                #expect(messages.map { $0["type"] as? String } == ["state", "patch", "patch"])
                #expect(messages.map { $0["version"] as? Int } == [0, 1, 2])
                #expect((messages[0]["state"] as? [String: Any])?["count"] as? Int == 0)
                #expect(lines[2].hasSuffix(#""base":1,"ops":[{"op":"replace","path":"/count","value":3}]}"#), "\(lines[2])")
            }
        }

        /// The stream ends when the server shuts down: exit 3 with the options that resume it.
        @Test func watchSaysHowToResumeWhenTheServerCloses() async throws {
            let server = try TestServer()
            defer { server.stop() }
            let (status, first, stderr) = try await blocking { () throws -> (Int32, String, String) in
                let (process, out, err, _) = try Self.launch(["watch", "counter", "--url", "http://127.0.0.1:\(server.port)"])
                defer { CommandLineTests.stop(process) }
                let first = try LineReader(out.fileHandleForReading).next()
                server.stop()
                let deadline = Date().addingTimeInterval(10)
                while process.isRunning, Date() < deadline { usleep(5_000) }
                return (process.isRunning ? -1 : process.terminationStatus, first,
                    String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
            }
            let epoch = try #require(try jsonObject(first)["epoch"] as? String)
            #expect(status == 3)
            #expect(stderr.contains("close code 1001"), "\(stderr)")
            #expect(stderr.hasSuffix("resume with --epoch \(epoch) --since 0\n"), "\(stderr)")
        }

        /// A deleted store ends the watch normally: the `deleted` line, then exit 0.
        @Test func watchEndsWithZeroWhenTheStoreIsDeleted() async throws {
            try await TestServer.with { server in
                let (status, lines) = try await blocking { () throws -> (Int32, [String]) in
                    let (process, out, _, _) = try Self.launch(["watch", "todos", "--url", "http://127.0.0.1:\(server.port)"])
                    defer { CommandLineTests.stop(process) }
                    let reader = LineReader(out.fileHandleForReading)
                    var lines = [try reader.next()]
                    let client = try TestHTTPClient(port: server.port)
                    defer { client.close() }
                    #expect(try client.request("DELETE", "/stores/todos").status == 204)
                    lines.append(try reader.next())
                    let deadline = Date().addingTimeInterval(10)
                    while process.isRunning, Date() < deadline { usleep(5_000) }
                    return (process.isRunning ? -1 : process.terminationStatus, lines)
                }
                #expect(status == 0)
                #expect(lines.last == #"{"type":"deleted","store":"todos"}"#)
            }
        }

        @Test func tokensComeFromTheOptionOrTheEnvironment() async throws {
            try await TestServer.with(configure: AccessControlTests.secured) { server in
                let without = try await Self.run(["get", "counter"], port: server.port)
                #expect(without.status == 1)
                #expect(without.stderr.contains("HTTP 401 unauthorized"), "\(without.stderr)")
                let option = try await Self.run(["get", "counter", "--token", AccessControlTests.reader], port: server.port)
                #expect(option.lines == [#"{"store":"counter","version":0,"state":{"count":0}}"#], "\(option.stderr)")
                let readOnly = try await Self.run(
                    ["send", "counter", #"{"type":"increment"}"#], port: server.port,
                    environment: ["STATEHOUSE_TOKEN": AccessControlTests.reader])
                #expect(readOnly.status == 1)
                #expect(readOnly.stderr.contains("HTTP 403 forbidden"), "\(readOnly.stderr)")
                let environment = try await Self.run(
                    ["send", "counter", #"{"type":"increment"}"#],
                    port: nil, environment: ["STATEHOUSE_TOKEN": AccessControlTests.writer,
                                             "STATEHOUSE_URL": "http://127.0.0.1:\(server.port)"])
                #expect(environment.lines == [#"{"store":"counter","version":1,"state":{"count":1}}"#], "\(environment.stderr)")
                let watchRefused = try await Self.run(["watch", "counter"], port: server.port)
                #expect(watchRefused.status == 1)
                #expect(watchRefused.stderr.contains("HTTP 401 unauthorized"), "\(watchRefused.stderr)")
                let watched = try await blocking { () throws -> String in
                    let (process, out, _, _) = try Self.launch(
                        ["watch", "counter", "--path", "/count", "--token", AccessControlTests.reader,
                         "--url", "http://127.0.0.1:\(server.port)"])
                    defer { CommandLineTests.stop(process) }
                    return try LineReader(out.fileHandleForReading).next()
                }
                #expect(watched.hasSuffix(#""version":1,"path":"/count","state":1}"#), "\(watched)")
            }
        }

        @Test func unreachableServersGetOneLineAndExitThree() async throws {
            let stopped = try TestServer()
            let port = stopped.port
            stopped.stop()
            for command in [["stores"], ["get", "counter"], ["watch", "counter"]] {
                let refused = try await Self.run(command, port: port)
                #expect(refused.status == 3, "\(command)")
                #expect(refused.stderr.split(separator: "\n").count == 1)
                #expect(refused.stderr.contains("127.0.0.1:\(port)") && refused.stderr.contains("ECONNREFUSED"), "\(refused.stderr)")
            }
            let tls = try await Self.run(["stores", "--url", "https://127.0.0.1:8443"], port: nil)
            #expect(tls.status == 2)
            #expect(tls.stderr == "statehouse: TLS (https://) is not supported yet; use http:// or ws:// (e.g. behind a TLS-terminating proxy).\n")
        }

        @Test(arguments: [
            ["send", "counter"], ["get"], ["watch", "counter", "--since", "3"], ["watch", "counter", "--format", "diff"],
            ["send", "counter", "{}", "--wait", "forever"], ["stores", "--bogus", "1"], ["stores", "--url", "counter"],
        ])
        func badUsageExitsTwoWithoutConnecting(arguments: [String]) async throws {
            let outcome = try await Self.run(arguments, port: nil)
            #expect(outcome.status == 2)
            #expect(outcome.stderr.hasPrefix("statehouse: "))
            #expect(outcome.stderr.split(separator: "\n").count == 1)
        }

        @Test func everyCommandHasHelpAndTheTopLevelListsThem() async throws {
            let top = try await Self.run(["--help"], port: nil)
            for command in ["stores", "get STORE", "send STORE", "watch STORE"] {
                #expect(top.stdout.contains("statehouse \(command)"), "\(command)")
            }
            #expect(top.stdout.contains("1 the server refused"))
            for command in ["stores", "get", "send", "watch"] {
                let help = try await Self.run([command, "--help"], port: nil)
                #expect(help.status == 0)
                #expect(help.stdout.hasPrefix("Usage: statehouse \(command)"))
                #expect(help.stdout.contains("--url URL") && help.stdout.contains("Exit status"))
            }
        }

        /// On a terminal (a pseudo-terminal from `script`): a coloured header and pretty-printed JSON; NO_COLOR drops
        /// the colour.
        @Test func aTerminalGetsAHeaderAndPrettyJSON() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                _ = try client.request("POST", "/stores/counter/actions", body: #"{"type":"add","payload":{"amount":12}}"#)
                let command = "\(CommandLineTests.binary.path) get counter --url http://127.0.0.1:\(server.port)"
                let coloured = try await Self.run(viaScript: command, environment: [:])
                #expect(coloured.status == 0)
                #expect(coloured.stdout.replacingOccurrences(of: "\r\n", with: "\n")
                    == "\u{1B}[1;36mcounter v1\u{1B}[0m\n{\n  \"count\": 12\n}\n", "\(coloured.stdout.debugDescription)")
                let plain = try await Self.run(viaScript: command, environment: ["NO_COLOR": "1"])
                #expect(plain.stdout.replacingOccurrences(of: "\r\n", with: "\n") == "counter v1\n{\n  \"count\": 12\n}\n")
                let table = try await Self.run(
                    viaScript: "\(CommandLineTests.binary.path) stores --url http://127.0.0.1:\(server.port)",
                    environment: ["NO_COLOR": "1"])
                #expect(table.stdout.replacingOccurrences(of: "\r\n", with: "\n").hasPrefix(
                    "NAME     REDUCER   VERSION\ncounter  Counter   1\n"), "\(table.stdout.debugDescription)")
            }
        }

        /// Runs `command` under `script -q -c` (util-linux), so its standard output is a pseudo-terminal.
        static func run(viaScript command: String, environment: [String: String]) async throws -> Outcome {
            try await blocking {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
                process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
                process.environment = ["PATH": "/usr/bin:/bin", "TERM": "dumb"].merging(environment) { $1 }
                let out = Pipe(), err = Pipe()
                process.standardOutput = out
                process.standardError = err
                process.standardInput = FileHandle.nullDevice
                try process.run()
                return try outcome(of: process, out: out, err: err, what: "script -c \(command)")
            }
        }
    }
}

/// Reads a subprocess's output line by line, each line within 10 s (the process is stopped by its owner after).
final class LineReader {
    private let handle: FileHandle
    private var buffered: [UInt8] = []

    init(_ handle: FileHandle) { self.handle = handle }

    /// The next line, without its line feed.
    func next() throws -> String {
        let deadline = Date().addingTimeInterval(10)
        while true {
            if let newline = buffered.firstIndex(of: 10) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            var poller = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            guard left > 0, poll(&poller, 1, left) > 0 else {
                throw TestFailure("no line within 10 s; so far: \(String(decoding: buffered, as: UTF8.self))")
            }
            let chunk = handle.availableData
            guard !chunk.isEmpty else {
                throw TestFailure("the output ended; so far: \(String(decoding: buffered, as: UTF8.self))")
            }
            buffered += chunk
        }
    }
}
