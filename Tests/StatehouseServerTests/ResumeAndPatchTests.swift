import Foundation
import StatehouseTestClients
import Testing

/// Protocol v2: epochs and ETags, resume from history, JSON Patch streams, projections.
extension ServerTests {
    @Suite struct ResumeAndPatchTests {
        static func post(_ client: TestHTTPClient, _ store: String, _ action: String) throws {
            let response = try client.request("POST", "/stores/\(store)/actions", body: action)
            guard response.status == 200 else { throw TestFailure("POST failed: \(response.bodyText)") }
        }

        @Test func entityTagsAndIfNoneMatch() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let first = try client.request("GET", "/stores/counter")
                let tag = try #require(first.field("ETag"))
                #expect(tag.hasPrefix("\"") && tag.hasSuffix("-0\""))
                let unchanged = try client.request("GET", "/stores/counter", fields: [("If-None-Match", tag)])
                #expect(unchanged.status == 304)
                #expect(unchanged.body.isEmpty)
                try Self.post(client, "counter", #"{"type":"increment"}"#)
                let changed = try client.request("GET", "/stores/counter", fields: [("If-None-Match", tag)])
                #expect(changed.status == 200)
                #expect(changed.field("ETag") == tag.replacingOccurrences(of: "-0\"", with: "-1\""))
            }
        }

        @Test func httpReadSinceGivesAPatchOrTheFullState() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let tag = try #require(try client.request("GET", "/stores/todos").field("ETag"))
                let epoch = String(tag.dropFirst().prefix { $0 != "-" })
                try Self.post(client, "todos", #"{"type":"add","payload":{"text":"milk"}}"#)
                try Self.post(client, "todos", #"{"type":"add","payload":{"text":"eggs"}}"#)
                let patch = try client.request("GET", "/stores/todos?since=0&epoch=\(epoch)")
                #expect(patch.status == 200)
                #expect(patch.field("Content-Type") == "application/json-patch+json")
                let ops = try #require(try JSONSerialization.jsonObject(with: Data(patch.body)) as? [[String: Any]])
                #expect(!ops.isEmpty)
                #expect(try client.request("GET", "/stores/todos?since=2&epoch=\(epoch)").bodyText == "[]")
                let lost = try client.request("GET", "/stores/todos?since=0&epoch=other")
                #expect(lost.field("Content-Type") == "application/json")
                #expect(try lost.json()["resumed"] as? Bool == false)
                #expect(try lost.json()["version"] as? Int == 2)
                #expect(try client.request("GET", "/stores/todos?since=0").status == 400)
            }
        }

        @Test func minVersionWaitsForTheWriteOrTimesOut() async throws {
            try await TestServer.with { server in
                let port = server.port
                async let waited = blocking {
                    let reader = try TestHTTPClient(port: port)
                    defer { reader.close() }
                    return try reader.request("GET", "/stores/counter?min_version=2&timeout_ms=10000").bodyText
                }
                let writer = try TestHTTPClient(port: port)
                defer { writer.close() }
                try Self.post(writer, "counter", #"{"type":"increment"}"#)
                try Self.post(writer, "counter", #"{"type":"increment"}"#)
                #expect(try await waited == #"{"store":"counter","version":2,"state":{"count":2}}"#)
                let late = try writer.request("GET", "/stores/counter?min_version=9&timeout_ms=20")
                #expect(late.status == 408)
                #expect((try late.json()["error"] as? [String: Any])?["code"] as? String == "min_version_timeout")
                #expect(try late.json()["version"] as? Int == 2)
            }
        }

        /// `min_version` with the epoch it belongs to: a version of another epoch (a server started since) is answered at
        /// once with 409 `epoch_mismatch` and the state now, never by waiting for the new history to reach that number.
        @Test func minVersionOfAnotherEpochIsAnsweredAtOnce() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                try Self.post(client, "counter", #"{"type":"increment"}"#)
                let epoch = try #require(try client.request("GET", "/stores/counter").field("ETag")?
                    .trimmingCharacters(in: CharacterSet(charactersIn: "\"")).split(separator: "-").first.map(String.init))
                let same = try client.request("GET", "/stores/counter?min_version=1&epoch=\(epoch)&timeout_ms=5000")
                #expect(same.status == 200)
                #expect(try same.json()["version"] as? Int == 1)
                // Version 1 was reached in this epoch; in another it proves nothing, and version 9 is not awaited.
                for version in [1, 9] {
                    let start = ContinuousClock.now
                    let other = try client.request("GET", "/stores/counter?min_version=\(version)&epoch=0ld&timeout_ms=5000")
                    #expect(other.status == 409)
                    #expect((try other.json()["error"] as? [String: Any])?["code"] as? String == "epoch_mismatch")
                    #expect(try other.json()["version"] as? Int == 1)
                    #expect(ContinuousClock.now - start < .seconds(4), "answered at once, not at the timeout")
                }
                #expect(try client.request("GET", "/stores/counter?epoch=\(epoch)").status == 400, "epoch alone still needs since")
            }
        }

        /// Shutdown answers a waiting long poll at once with the state it has (503 `shutting_down`), for a `min_version`
        /// read and for a `wait=settled` action alike, instead of leaving it unanswered.
        @Test func shutdownAnswersWaitingLongPolls() async throws {
            let server = try TestServer()
            let port = server.port
            let reader = try TestHTTPClient(port: port)
            defer { reader.close() }
            #expect(try reader.request("GET", "/healthz").status == 200)
            try reader.sendRaw("GET /stores/counter?min_version=50&timeout_ms=60000 HTTP/1.1\r\nHost: x\r\n\r\n")
            let poster = try TestHTTPClient(port: port)
            defer { poster.close() }
            let body = #"[{"type":"increment"},{"type":"incrementLater","payload":{"ms":60000}}]"#
            try poster.sendRaw("POST /stores/counter/actions?wait=settled&timeout_ms=60000 HTTP/1.1\r\nHost: x\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
            // The batch's increment makes version 1: once a third connection sees it, the poster waits for its effect.
            let probe = try TestHTTPClient(port: port)
            defer { probe.close() }
            #expect(try probe.request("GET", "/stores/counter?min_version=1&timeout_ms=5000").status == 200)
            let stopper = Thread { server.stop() }
            let start = ContinuousClock.now
            stopper.start()
            for client in [reader, poster] {
                let response = try client.readResponse(deadline: .now + .seconds(5))
                #expect(response.status == 503)
                #expect((try response.json()["error"] as? [String: Any])?["code"] as? String == "shutting_down")
                #expect(try response.json()["state"] != nil)
                #expect(response.field("Retry-After") != nil)
            }
            #expect(ContinuousClock.now - start < .seconds(3), "answered before the grace period ran out")
            server.server.waitUntilStopped()
        }

        @Test func webSocketResumeInsideAndOutsideTheHistory() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let first = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
                let snapshot = try first.receiveJSON(timeout: .seconds(5))
                let epoch = try #require(snapshot["epoch"] as? String)
                first.close()
                try Self.post(client, "counter", #"{"type":"add","payload":{"amount":5}}"#)
                try Self.post(client, "counter", #"{"type":"increment"}"#)

                let resumed = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws?epoch=\(epoch)&since=0")
                defer { resumed.close() }
                let patch = try resumed.receiveJSON(timeout: .seconds(5))
                #expect(patch["type"] as? String == "patch")
                #expect(patch["base"] as? Int == 0)
                #expect(patch["version"] as? Int == 2)
                let ops = try #require(patch["ops"] as? [[String: Any]])
                #expect(ops.count == 1)
                #expect(ops.first?["path"] as? String == "/count")
                #expect(ops.first?["value"] as? Int == 6)
                // Then ordinary state messages.
                try Self.post(client, "counter", #"{"type":"increment"}"#)
                #expect(try resumed.receiveJSON(timeout: .seconds(5))["version"] as? Int == 3)

                // Already at the newest: nothing first; the next message is the next change. The 101 does not say
                // when the subscription begins (a store on another loop may take the POST first): version 4 then
                // comes as the resume patch from 3, else as a state message; never anything before it.
                let current = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws?epoch=\(epoch)&since=3")
                defer { current.close() }
                try Self.post(client, "counter", #"{"type":"increment"}"#)
                let next = try current.receiveJSON(timeout: .seconds(5))
                #expect(next["version"] as? Int == 4)
                switch next["type"] as? String {
                case "state": break
                case "patch": #expect(next["base"] as? Int == 3)
                case let other: Issue.record("expected a state or a patch from 3, got \(other ?? "nil")")
                }

                let stranger = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws?epoch=nope&since=1")
                defer { stranger.close() }
                let full = try stranger.receiveJSON(timeout: .seconds(5))
                #expect(full["resumed"] as? Bool == false)
                #expect(full["version"] as? Int == 4)
            }
        }

        @Test func patchStreamReproducesEveryStateInAnIndependentImplementation() async throws {
            try await TestServer.with { server in
                let ready = FileManager.default.temporaryDirectory.appendingPathComponent("statehouse-ready-\(UUID())")
                let port = server.port
                async let checker = blocking {
                    try TestPython.run(script: "ws_patch_check.py", args: [
                        "--url", "ws://127.0.0.1:\(port)/stores/todos/ws", "--until-version", "40", "--ready-file", ready.path,
                    ])
                }
                try await waitForFile(ready)
                let client = try TestHTTPClient(port: port)
                defer { client.close() }
                for index in 0..<20 {
                    try Self.post(client, "todos", #"{"type":"add","payload":{"text":"item \#(index) \"quoted\" / ~0 ~1"}}"#)
                    try Self.post(client, "todos", index % 3 == 0 ? #"{"type":"remove","payload":{"id":\#(index + 1)}}"# : #"{"type":"toggle","payload":{"id":\#(index + 1)}}"#)
                }
                let result = try await checker
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout.last == "ok 40")
            }
        }

        @Test func projectionsSendOnlyWhenTheSubValueChanges() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let ws = try TestWebSocketClient(port: server.port, path: "/stores/todos/ws?path=/items/0/text")
                defer { ws.close() }
                let first = try ws.receiveJSON(timeout: .seconds(5))
                #expect(first["path"] as? String == "/items/0/text")
                #expect(first["state"] is NSNull)
                try Self.post(client, "todos", #"{"type":"add","payload":{"text":"milk"}}"#)   // v1: "milk"
                try Self.post(client, "todos", #"{"type":"toggle","payload":{"id":1}}"#)       // v2: unchanged
                try Self.post(client, "todos", #"{"type":"add","payload":{"text":"eggs"}}"#)   // v3: unchanged
                try Self.post(client, "todos", #"{"type":"remove","payload":{"id":1}}"#)       // v4: "eggs"
                let milk = try ws.receiveJSON(timeout: .seconds(5))
                #expect(milk["version"] as? Int == 1)
                #expect(milk["state"] as? String == "milk")
                let eggs = try ws.receiveJSON(timeout: .seconds(5))
                #expect(eggs["version"] as? Int == 4)
                #expect(eggs["state"] as? String == "eggs")
                #expect(try TestWebSocketClient.attemptHandshake(
                    port: server.port, path: "/stores/todos/ws?path=items", fields: TestWebSocketClient.handshakeFields(port: server.port)).status == 400)
            }
        }
    }
}

/// Polls for `file` with a deadline (a Python client's "subscribed" signal).
func waitForFile(_ file: URL) async throws {
    let deadline = ContinuousClock.now + .seconds(15)
    while !FileManager.default.fileExists(atPath: file.path) {
        if ContinuousClock.now > deadline { throw TestFailure("python client did not subscribe in time") }
        try await Task.sleep(for: .milliseconds(20))
    }
    try? FileManager.default.removeItem(at: file)
}
