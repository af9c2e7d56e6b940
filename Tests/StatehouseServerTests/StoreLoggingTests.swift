import DemoReducers
import Foundation
import StatehouseCore
import StatehouseServer
import StatehouseTestClients
import Testing

extension ServerTests {
    /// A store's `"log": ["actions", "state"]`: read from the configuration, written through the server's logger with
    /// `store=<name>`, changed by a reload. Real servers on port 0 logging to an ``InMemoryLogHandler``, real clients.
    @Suite struct StoreLoggingTests {
        /// A configuration file's text with `counter` (Counter, `counterLog` as its `log` member when given) and
        /// `quiet` (Counter, no `log`).
        static func config(counterLog: String?, counterReducer: String = "Counter") -> String {
            let log = counterLog.map { #","log":\#($0)"# } ?? ""
            return #"{"stores":[{"name":"counter","reducer":"\#(counterReducer)"\#(log)},{"name":"quiet","reducer":"Counter"}]}"#
        }

        /// Runs `body` with a server built from the configuration text `json` (listening on 127.0.0.1 port 0), logging
        /// to `handler` at info; always shuts it down.
        static func withServer<T>(
            _ json: String, _ handler: InMemoryLogHandler, _ body: (Server, UInt16) async throws -> T
        ) async throws -> T {
            var configuration = try ConfigurationLoader.parse(Array(json.utf8), path: "test.json")
            asStarted(&configuration)
            let server = try Server(
                configuration: configuration, catalog: .demo, logger: Logger(level: .info, handler: handler))
            let port = UInt16(try server.start())
            defer { server.shutdown() }
            return try await body(server, port)
        }

        /// What ``withServer(_:_:_:)`` changes in the file: the host and port (as `--host`/`--port` do for a reload).
        static func asStarted(_ configuration: inout ServerConfiguration) {
            configuration.host = "127.0.0.1"
            configuration.port = 0
        }

        @Test func declaredActionsAreLoggedWithTheStoreName() async throws {
            let handler = InMemoryLogHandler()
            try await Self.withServer(Self.config(counterLog: #"["actions"]"#), handler) { _, port in
                let client = try TestHTTPClient(port: port)
                defer { client.close() }
                #expect(try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#).status == 200)
                #expect(try client.request("POST", "/stores/counter/actions", body: #"{"type":"add","payload":{"amount":5}}"#).status == 200)
                #expect(try client.request("POST", "/stores/counter/actions", body: #"{"type":"add","payload":{"amount":0}}"#).status == 200)
                #expect(try client.request("POST", "/stores/quiet/actions", body: #"{"type":"increment"}"#).status == 200)

                let last = try #require(await handler.waitForRecord { $0.message.hasPrefix("store counter: action add(amount: 0)") })
                #expect(last.message == "store counter: action add(amount: 0) → version 2 (state unchanged)")
                let lines = handler.records.filter { $0.message.hasPrefix("store ") }
                #expect(lines.map(\.message) == [
                    "store counter: action increment → version 1",
                    "store counter: action add(amount: 5) → version 2",
                    "store counter: action add(amount: 0) → version 2 (state unchanged)",
                ], "only counter logs its actions, and no state line: \(lines)")
                #expect(lines.allSatisfy { $0.level == .info && $0.metadata == ["store": "counter"] })
            }
        }

        @Test func actionsFromEffectsAndStatesAreLoggedToo() async throws {
            let handler = InMemoryLogHandler()
            try await Self.withServer(Self.config(counterLog: #"["actions","state"]"#), handler) { _, port in
                let client = try TestHTTPClient(port: port)
                defer { client.close() }
                let body = #"{"type":"incrementLater","payload":{"ms":1}}"#
                #expect(try client.request("POST", "/stores/counter/actions", body: body).status == 200)
                let state = try #require(await handler.waitForRecord { $0.message.hasPrefix("store counter: state") })
                #expect(state.message == "store counter: state at version 1: State(count: 1)")
                #expect(state.level == .info)
                #expect(handler.records.map(\.message).filter { $0.hasPrefix("store counter: action") } == [
                    "store counter: action incrementLater(ms: 1) → version 0 (state unchanged)",
                    "store counter: action increment (from an effect) → version 1",
                ])
            }
        }

        /// SIGHUP's work, in process: a changed `log` is applied to the running store (and said in one line); a
        /// changed reducer still needs a restart.
        @Test func aReloadAppliesAChangedLog() async throws {
            let path = try CommandLineTests.writeConfig(Self.config(counterLog: nil))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let handler = InMemoryLogHandler()
            let json = try String(contentsOfFile: path, encoding: .utf8)
            try await Self.withServer(json, handler) { server, port in
                let client = try TestHTTPClient(port: port)
                defer { client.close() }
                #expect(try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#).status == 200)

                try Data(Self.config(counterLog: #"["state"]"#).utf8).write(to: URL(fileURLWithPath: path))
                #expect(server.reload(from: path, adjusting: Self.asStarted))
                let change = try #require(handler.first { $0.message.hasPrefix("reload: stores.counter.log") })
                #expect(change.message == "reload: stores.counter.log: [] → [state]")
                #expect(change.level == .info)
                #expect(!handler.records.contains { $0.message.contains("needs a restart") })

                // Applied on the store's actor soon after the reload: post until a state line comes (10 s at most).
                let deadline = ContinuousClock.now + .seconds(10)
                var found: LogRecord?
                while found == nil, ContinuousClock.now < deadline {
                    #expect(try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#).status == 200)
                    found = await handler.waitForRecord(timeout: .milliseconds(100)) { $0.message.hasPrefix("store counter: state") }
                }
                let state = try #require(found)
                #expect(state.metadata == ["store": "counter"])
                #expect(!handler.records.contains { $0.message.hasPrefix("store counter: action") }, "only states asked for")

                // Another reducer needs a restart; the log change that comes with it is applied all the same.
                try Data(Self.config(counterLog: #"["actions","state"]"#, counterReducer: "TodoList").utf8)
                    .write(to: URL(fileURLWithPath: path))
                #expect(server.reload(from: path, adjusting: Self.asStarted))
                #expect(handler.first { $0.message == "reload: stores.counter.log: [state] → [actions, state]" } != nil)
                let ignored = try #require(handler.first { $0.message.contains("needs a restart") })
                #expect(ignored.message == "reload: stores: [counter, quiet] → [counter, quiet] (declarations changed) needs a restart; ignored until then")
            }
        }

        @Test(arguments: [
            (#"{"stores":[{"name":"a","reducer":"Counter","log":["actions","states"]}]}"#,
             #"f.json: stores[0].log[1]: "states" is not a log option; use "actions" and "state""#),
            (#"{"stores":[{"name":"a","reducer":"Counter","log":[1]}]}"#,
             #"f.json: stores[0].log[0]: not a string is not a log option; use "actions" and "state""#),
            (#"{"stores":[{"name":"a","reducer":"Counter"},{"name":"b","reducer":"Counter","log":"actions"}]}"#,
             #"f.json: stores[1].log: must be a JSON array of "actions" and "state", e.g. ["actions"]"#),
        ])
        func aBadLogEntryIsAConfigurationError(json: String, message: String) {
            do {
                _ = try ConfigurationLoader.parse(Array(json.utf8), path: "f.json")
                Issue.record("accepted \(json)")
            } catch {
                #expect(error.description == message)
            }
        }

        @Test func logEntriesAreRead() throws {
            let json = #"{"stores":[{"name":"a","reducer":"Counter","log":["state","actions","state"]},"#
                + #"{"name":"b","reducer":"Counter","log":[]},{"name":"c","reducer":"Counter"}]}"#
            let configuration = try ConfigurationLoader.parse(Array(json.utf8), path: "f.json")
            #expect(configuration.stores.map(\.log) == [.all, [], []])
        }
    }
}
