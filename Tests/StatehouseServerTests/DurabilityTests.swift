import Foundation
import StatehouseServer
import StatehouseTestClients
import Testing

extension ServerTests {
    /// Durable stores over a real SQLite file: restarts (a graceful shutdown, then a new server on the same file), time
    /// travel, the journal, compaction, and writes that fail. The SIGKILL crash test is `make soak` (Tests/Soak/crash.py).
    @Suite struct DurabilityTests {
        /// A temporary directory with a database path in it; removed by `remove()`.
        struct DataDirectory {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("statehouse-durable-\(UUID())")
            var database: String { url.appendingPathComponent("statehouse.sqlite").path }
            func remove() { try? FileManager.default.removeItem(at: url) }
        }

        static func durable(
            _ directory: DataDirectory, sync: SyncMode = .commit, stores: [ServerConfiguration.StoreDeclaration]? = nil,
            _ adjust: @escaping (inout StorageConfiguration) -> Void = { _ in }
        ) -> (inout ServerConfiguration) -> Void {
            { configuration in
                var storage = StorageConfiguration(path: directory.database)
                storage.sync = sync
                adjust(&storage)
                configuration.storage = storage
                if let stores { configuration.stores = stores }
            }
        }

        static func post(_ client: TestHTTPClient, _ store: String, _ action: String, key: String? = nil) throws -> TestHTTPResponse {
            try client.request(
                "POST", "/stores/\(store)/actions", body: action, fields: key.map { [("Idempotency-Key", $0)] } ?? [])
        }

        @Test func aRestartKeepsStatesVersionsEpochsKeysAndCreatedStores() async throws {
            let directory = DataDirectory()
            defer { directory.remove() }
            let (tag, epoch) = try await TestServer.with(configure: Self.durable(directory)) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                for index in 0..<3 {
                    #expect(try Self.post(client, "counter", #"{"type":"increment"}"#, key: "k\(index)").status == 200)
                }
                #expect(try client.request("PUT", "/stores/made", body: #"{"reducer":"TodoList"}"#).status == 201)
                #expect(try Self.post(client, "made", #"{"type":"add","payload":{"text":"milk"}}"#).status == 200)
                let read = try client.request("GET", "/stores/counter")
                let tag = try #require(read.field("ETag"))
                return (tag, String(tag.dropFirst().prefix { $0 != "-" }))
            }
            try await TestServer.with(configure: Self.durable(directory)) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let read = try client.request("GET", "/stores/counter")
                #expect(try read.json()["version"] as? Int == 3)
                #expect((try read.json()["state"] as? [String: Any])?["count"] as? Int == 3)
                #expect(read.field("ETag") == tag)  // the epoch survived
                #expect(try client.request("GET", "/stores/counter", fields: [("If-None-Match", tag)]).status == 304)
                // A retried key gets its first outcome, without applying twice.
                let retry = try Self.post(client, "counter", #"{"type":"increment"}"#, key: "k1")
                #expect(retry.status == 200)
                #expect(retry.field("Idempotent-Replayed") == "true")
                #expect(try retry.json()["version"] as? Int == 2)
                #expect(try Self.post(client, "counter", #"{"type":"decrement"}"#, key: "k1").status == 422)
                #expect(try client.request("GET", "/stores/counter").json()["version"] as? Int == 3)
                // A resume from a version before the restart is one patch.
                let patch = try client.request("GET", "/stores/counter?since=1&epoch=\(epoch)")
                #expect(patch.field("Content-Type") == "application/json-patch+json")
                // The store made with PUT is back, with its state.
                let made = try client.request("GET", "/stores/made")
                #expect(made.status == 200)
                #expect(made.bodyText.contains("milk"))
                #expect(try client.request("DELETE", "/stores/made").status == 204)
                // Versions go on from where they were.
                #expect(try Self.post(client, "counter", #"{"type":"increment"}"#).json()["version"] as? Int == 4)
            }
            try await TestServer.with(configure: Self.durable(directory)) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                #expect(try client.request("GET", "/stores/made").status == 404)  // the DELETE was written
                #expect(try client.request("GET", "/stores/counter").json()["version"] as? Int == 4)
            }
        }

        @Test func aWebSocketSubscriberResumesAcrossARestartWithOnePatch() async throws {
            let directory = DataDirectory()
            defer { directory.remove() }
            let (epoch, version) = try await TestServer.with(configure: Self.durable(directory)) { server in
                let socket = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
                defer { socket.close() }
                let first = try socket.receiveJSON()
                try socket.sendText(#"{"type":"action","ref":"a","id":"w1","action":{"type":"increment"}}"#)
                _ = try socket.receiveJSON { $0["type"] as? String == "ack" }
                let epoch = try #require(first["epoch"] as? String)
                return (epoch, 1)
            }
            try await TestServer.with(configure: Self.durable(directory)) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                #expect(try Self.post(client, "counter", #"{"type":"increment"}"#).status == 200)
                let socket = try TestWebSocketClient(
                    port: server.port, path: "/stores/counter/ws?epoch=\(epoch)&since=\(version)")
                defer { socket.close() }
                let message = try socket.receiveJSON()
                #expect(message["type"] as? String == "patch")
                #expect(message["base"] as? Int == 1)
                #expect(message["version"] as? Int == 2)
                // The WebSocket key survived too: acked again with its first version, not applied twice.
                try socket.sendText(#"{"type":"action","ref":"b","id":"w1","action":{"type":"increment"}}"#)
                let ack = try socket.receiveJSON { $0["type"] as? String == "ack" }
                #expect(ack["version"] as? Int == 1)
                #expect(try client.request("GET", "/stores/counter").json()["version"] as? Int == 2)
            }
        }

        @Test func timeTravelAndTheJournal() async throws {
            let directory = DataDirectory()
            defer { directory.remove() }
            let stores: [ServerConfiguration.StoreDeclaration] = [
                .init(name: "counter", reducer: "Counter"), .init(name: "scratch", reducer: "Counter", durable: false),
            ]
            try await TestServer.with(configure: Self.durable(directory, stores: stores)) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                for _ in 0..<4 { _ = try Self.post(client, "counter", #"{"type":"increment"}"#) }
                _ = try Self.post(client, "counter", #"{"type":"add","payload":{"amount":10}}"#)
                let at2 = try client.request("GET", "/stores/counter?at=2")
                #expect(at2.status == 200)
                #expect((try at2.json()["state"] as? [String: Any])?["count"] as? Int == 2)
                #expect(try client.request("GET", "/stores/counter?at=9").status == 404)
                #expect(try client.request("GET", "/stores/counter?at=x").status == 400)
                let log = try client.request("GET", "/stores/counter/log?since=3")
                #expect(log.status == 200)
                #expect(log.field("Content-Type") == "application/x-ndjson")
                let lines = log.bodyText.split(separator: "\n").map { try? jsonObject(String($0)) }
                #expect(lines.compactMap { $0?["version"] as? Int } == [4, 5])
                #expect(lines.last??["origin"] as? String == "external")
                let action = lines.last??["action"] as? [String: Any]
                #expect(action?["type"] as? String == "add")
                #expect((action?["payload"] as? [String: Any])?["amount"] as? Int == 10)
                #expect(try client.request("GET", "/stores/counter/log?limit=2").bodyText.split(separator: "\n").count == 2)
                #expect(try client.request("GET", "/stores/scratch/log").json()["error"] != nil)
                #expect(try client.request("GET", "/stores/scratch/log").status == 404)
            }
        }

        @Test func compactionKeepsTheDatabaseBounded() async throws {
            let directory = DataDirectory()
            defer { directory.remove() }
            let configure = Self.durable(directory) { storage in
                storage.snapshotEveryActions = 50
                storage.retainActions = 100
            }
            try await TestServer.with(configure: configure) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let batch = "[" + Array(repeating: #"{"type":"increment"}"#, count: 100).joined(separator: ",") + "]"
                var sizes: [Int] = []
                for round in 0..<30 {
                    #expect(try Self.post(client, "counter", batch).status == 200)
                    if round >= 10 {
                        sizes.append(try client.request("GET", "/stores/counter/log?limit=10000").bodyText.split(separator: "\n").count)
                    }
                }
                // Rows behind the newest snapshot at or before newest - retainActions are gone: never more than about
                // retainActions + snapshotEveryActions + one batch remain, however many were written.
                #expect(sizes.allSatisfy { $0 <= 100 + 50 + 100 })
                #expect(try client.request("GET", "/stores/counter?at=1").status == 410)
                #expect(try client.request("GET", "/stores/counter?at=2950").status == 200)
            }
            // Recovery works from the compacted journal.
            try await TestServer.with(configure: configure) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                #expect(try client.request("GET", "/stores/counter").json()["version"] as? Int == 3000)
            }
        }

        @Test func aFullDatabaseUndoesTheBatchAndKeepsServing() async throws {
            let directory = DataDirectory()
            defer { directory.remove() }
            let configure = Self.durable(directory) { $0.maxBytes = 256 * 1024 }
            try await TestServer.with(configure: configure) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let text = String(repeating: "x", count: 20_000)
                var last: TestHTTPResponse?
                var before = 0
                for _ in 0..<100 {
                    before = try client.request("GET", "/stores/todos").json()["version"] as? Int ?? -1
                    let response = try Self.post(client, "todos", #"{"type":"add","payload":{"text":"\#(text)"}}"#)
                    last = response
                    if response.status != 200 { break }
                }
                let failed = try #require(last)
                #expect(failed.status == 507)
                #expect((try failed.json()["error"] as? [String: Any])?["code"] as? String == "storage_full")
                // Memory did not run ahead of the disk: the version is the one before the failed action.
                #expect(try client.request("GET", "/stores/todos").json()["version"] as? Int == before)
                // A WebSocket sender hears it with its ref; the store keeps serving reads.
                let socket = try TestWebSocketClient(port: server.port, path: "/stores/todos/ws")
                defer { socket.close() }
                _ = try socket.receiveJSON()
                try socket.sendText(#"{"type":"action","ref":"big","action":{"type":"add","payload":{"text":"\#(text)"}}}"#)
                let error = try socket.receiveJSON { $0["type"] as? String == "error" }
                #expect(error["ref"] as? String == "big")
                #expect(error["code"] as? String == "storage_full")
                #expect(try client.request("GET", "/stores/counter").status == 200)
            }
        }

        @Test func aDatabaseThatCannotBeUsedStopsTheStart() throws {
            let directory = DataDirectory()
            defer { directory.remove() }
            try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
            try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: directory.database))
            var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, stores: [.init(name: "counter", reducer: "Counter")])
            Self.durable(directory)(&configuration)
            #expect {
                _ = try Server(configuration: configuration, catalog: .demo)
            } throws: { error in
                "\(error)".contains(directory.database)
            }
        }

        @Test func aStoreWhoseReducerChangedStopsTheStart() async throws {
            let directory = DataDirectory()
            defer { directory.remove() }
            try await TestServer.with(configure: Self.durable(directory)) { _ in }
            var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, stores: [.init(name: "counter", reducer: "TodoList")])
            Self.durable(directory)(&configuration)
            #expect {
                _ = try Server(configuration: configuration, catalog: .demo)
            } throws: { error in
                "\(error)".contains("holds Counter data")
            }
        }
    }
}
