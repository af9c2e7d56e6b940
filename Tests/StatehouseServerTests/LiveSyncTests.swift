import Foundation
import StatehouseTestClients
import Testing

extension ServerTests {
    /// Several real clients at once: curl drives, an in-repo client and Python `websockets` watch.
    @Suite struct LiveSyncTests {
        /// The issue's "done when": curl increments; watchers get version 0 then 1; `add 0` sends them nothing.
        @Test func curlDrivesTwoWatchersThroughTheSameVersions() async throws {
            try await TestServer.with { server in
                let url = "http://127.0.0.1:\(server.port)/stores/counter/actions"
                let watcher = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
                defer { watcher.close() }
                #expect(try watcher.receiveJSON(timeout: .seconds(5))["version"] as? Int == 0)

                // Python's websockets library watches until version 3 in a subprocess; it creates the ready file once
                // it has its snapshot, and only then does curl drive the store.
                let ready = FileManager.default.temporaryDirectory.appendingPathComponent("statehouse-ready-\(UUID())")
                async let python = blocking {
                    try TestPython.run(script: "ws_watch.py", args: [
                        "--url", "ws://127.0.0.1:\(server.port)/stores/counter/ws", "--until-version", "3", "--timeout", "20",
                        "--ready-file", ready.path,
                    ])
                }
                try await waitForFile(ready)

                let first = try TestCurl.run(["-s", "-d", #"{"type":"increment"}"#, url])
                #expect(first.stdout == #"{"store":"counter","version":1,"state":{"count":1}}"#)
                let same = try TestCurl.run(["-s", "-d", #"{"type":"add","payload":{"amount":0}}"#, url])
                #expect(same.stdout == #"{"store":"counter","version":1,"state":{"count":1}}"#)
                _ = try TestCurl.run(["-s", "-d", #"{"type":"add","payload":{"amount":5}}"#, url])
                _ = try TestCurl.run(["-s", "-d", #"{"type":"decrement"}"#, url])

                var seen: [Int] = []
                while seen.last != 3 {
                    let message = try watcher.receiveJSON(timeout: .seconds(5))
                    seen.append(try #require(message["version"] as? Int))
                }
                #expect(seen == [1, 2, 3])  // nothing for `add 0`

                let result = try await python
                #expect(result.status == 0, "python client: \(result.stderr)")
                let versions = try result.stdout.map { try #require(try jsonObject($0)["version"] as? Int) }
                #expect(versions.first == 0 || versions.first == 1)
                #expect(versions.last == 3)
                #expect(versions == versions.sorted() && Set(versions).count == versions.count)
                let counts = try result.stdout.map { try #require((try jsonObject($0)["state"] as? [String: Any])?["count"] as? Int) }
                #expect(counts.last == 5)
            }
        }

        /// Two WebSocket clients acting concurrently see the same, gap-free sequence of versions.
        @Test func concurrentWritersAndWatchersAgree() async throws {
            try await TestServer.with { server in
                let port = server.port
                let actionsPerWriter = 200
                let watchers = try (0..<3).map { _ in try TestWebSocketClient(port: port, path: "/stores/counter/ws") }
                defer { watchers.forEach { $0.close() } }
                for watcher in watchers { #expect(try watcher.receiveJSON(timeout: .seconds(5))["version"] as? Int == 0) }

                // Blocking clients run on threads of their own, never on the cooperative pool the server needs.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for writer in 0..<2 {
                        group.addTask {
                            try await blocking {
                                let ws = try TestWebSocketClient(port: port, path: "/stores/counter/ws")
                                defer { ws.close() }
                                for index in 0..<actionsPerWriter {
                                    try ws.sendText(#"{"type":"action","ref":"w\#(writer)-\#(index)","action":{"type":"increment"}}"#)
                                }
                                var acks = 0
                                while acks < actionsPerWriter {
                                    if try ws.receiveJSON(timeout: .seconds(10))["type"] as? String == "ack" { acks += 1 }
                                }
                            }
                        }
                    }
                    group.addTask {
                        try await blocking {
                            let client = try TestHTTPClient(port: port)
                            defer { client.close() }
                            for _ in 0..<20 {
                                _ = try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                let total = 2 * actionsPerWriter + 20
                for watcher in watchers {
                    var versions: [Int] = []
                    while versions.last != total {
                        versions.append(try #require(try watcher.receiveJSON(timeout: .seconds(10))["version"] as? Int))
                    }
                    #expect(versions == Array(1...total))
                }
            }
        }
    }
}
