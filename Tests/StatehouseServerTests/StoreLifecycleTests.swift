import Foundation
import StatehouseServer
import StatehouseTestClients
import Testing

/// Protocol v2: SSE, idempotent and batched actions, stores created and deleted over HTTP, slow consumers.
extension ServerTests {
    @Suite struct StoreLifecycleTests {
        @Test func idempotencyKeyReplaysTheFirstAnswer() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let key = [("Idempotency-Key", "k-1")]
                let first = try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#, fields: key)
                let again = try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#, fields: key)
                #expect(first.bodyText == #"{"store":"counter","version":1,"state":{"count":1}}"#)
                #expect(again.bodyText == first.bodyText)
                #expect(again.field("Idempotent-Replayed") == "true")
                let reused = try client.request("POST", "/stores/counter/actions", body: #"{"type":"decrement"}"#, fields: key)
                #expect(reused.status == 422)
                #expect(try client.request("GET", "/stores/counter").bodyText.contains(#""count":1"#))
            }
        }

        @Test func concurrentRetriesWithOneKeyReduceOnce() async throws {
            try await TestServer.with { server in
                let port = server.port
                let answers = try await concurrentKeyedPosts(
                    port: port, count: 8, path: "/stores/counter/actions?wait=settled&timeout_ms=5000",
                    body: #"{"type":"incrementLater","payload":{"ms":30}}"#, key: "same")
                #expect(Set(answers) == [#"{"store":"counter","version":1,"state":{"count":1}}"#])
            }
        }

        @Test func webSocketActionIdsAreIdempotent() async throws {
            try await TestServer.with { server in
                let ws = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
                defer { ws.close() }
                _ = try ws.receiveJSON(timeout: .seconds(5))
                try ws.sendText(#"{"type":"action","ref":"a","id":"once","action":{"type":"increment"}}"#)
                #expect(try ws.receiveJSON(timeout: .seconds(5))["version"] as? Int == 1)  // state
                #expect(try ws.receiveJSON(timeout: .seconds(5))["ref"] as? String == "a")
                try ws.sendText(#"{"type":"action","ref":"b","id":"once","action":{"type":"increment"}}"#)
                let replay = try ws.receiveJSON(timeout: .seconds(5))
                #expect(replay["type"] as? String == "ack")
                #expect(replay["ref"] as? String == "b")
                #expect(replay["version"] as? Int == 1)
                // The key is bound to type and payload as JSON values: member order and meta do not matter...
                try ws.sendText(#"{"type":"action","ref":"c","id":"add","action":{"payload":{"amount":2},"type":"add"}}"#)
                #expect(try ws.receiveJSON(timeout: .seconds(5))["version"] as? Int == 2)  // state
                #expect(try ws.receiveJSON(timeout: .seconds(5))["ref"] as? String == "c")
                try ws.sendText(#"{"type":"action","ref":"d","id":"add","action":{"type":"add","meta":1,"payload":{"amount":2}}}"#)
                let same = try ws.receiveJSON(timeout: .seconds(5))
                #expect(same["type"] as? String == "ack" && same["ref"] as? String == "d" && same["version"] as? Int == 2)
                // ...but another payload is another action.
                try ws.sendText(#"{"type":"action","ref":"e","id":"add","action":{"type":"add","payload":{"amount":3}}}"#)
                let reused = try ws.receiveJSON(timeout: .seconds(5))
                #expect(reused["type"] as? String == "error" && reused["code"] as? String == "idempotency_key_reused")
                // A repeat sent while the first is still running is acked after it, in send order.
                try ws.sendText(#"{"type":"action","ref":"f","id":"k3","action":{"type":"increment"}}"#)
                try ws.sendText(#"{"type":"action","ref":"g","id":"k3","action":{"type":"increment"}}"#)
                var acks: [String] = []
                while acks.count < 2 {
                    let message = try ws.receiveJSON(timeout: .seconds(5))
                    if message["type"] as? String == "ack", let ref = message["ref"] as? String { acks.append(ref) }
                }
                #expect(acks == ["f", "g"])
            }
        }

        @Test func arrayBodyAppliesEveryActionInOrder() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let batch = try client.request(
                    "POST", "/stores/counter/actions", body: #"[{"type":"increment"},{"type":"add","payload":{"amount":2}}]"#)
                #expect(batch.bodyText == #"{"store":"counter","version":2,"state":{"count":3}}"#)
                let bad = try client.request("POST", "/stores/counter/actions", body: #"[{"type":"increment"},{"type":"nope"}]"#)
                #expect(bad.status == 400)
                #expect(try client.request("POST", "/stores/counter/actions", body: "[]").status == 400)
                #expect(try client.request("GET", "/stores/counter").bodyText.contains(#""version":2"#))
            }
        }

        /// `.` and `..` are not store names (clients resolve them away), and a path segment that does not
        /// percent-decode names no store: both 400 `invalid_store_name`, nothing created.
        @Test func dotSegmentsAndUndecodableNamesAreNotStoreNames() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                for path in ["/stores/%2E", "/stores/%2E%2E", "/stores/%ff", "/stores/%C0%AF", "/stores/ab%"] {
                    let response = try client.request("PUT", path, body: #"{"reducer":"Counter"}"#)
                    #expect(response.status == 400, "\(path)")
                    #expect(response.bodyText.contains(#""code":"invalid_store_name""#), "\(path): \(response.bodyText)")
                }
                #expect(try client.request("POST", "/stores/%ff/actions", body: #"{"type":"increment"}"#).status == 400)
                #expect(try client.request("PUT", "/stores/a..b", body: #"{"reducer":"Counter"}"#).status == 201)
                #expect(!(try client.request("GET", "/stores").bodyText.contains(#""name":"..""#)))
            }
        }

        /// `limits.maxStores` counts configured stores too; past it PUT is 507 and nothing is created.
        @Test func storeCreationStopsAtTheLimit() async throws {
            var limits = ServerConfiguration.Limits()
            limits.maxStores = 4  // the 3 demo stores + 1
            try await TestServer.with(limits: limits) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                #expect(try client.request("PUT", "/stores/one", body: #"{"reducer":"Counter"}"#).status == 201)
                let refused = try client.request("PUT", "/stores/two", body: #"{"reducer":"Counter"}"#)
                #expect(refused.status == 507)
                #expect(refused.bodyText.contains("too_many_stores"))
                #expect(try client.request("GET", "/stores/two").status == 404)
                #expect(try client.request("PUT", "/stores/one", body: #"{"reducer":"Counter"}"#).status == 200)  // exists
                #expect(try client.request("DELETE", "/stores/one").status == 204)
                #expect(try client.request("PUT", "/stores/two", body: #"{"reducer":"Counter"}"#).status == 201)
            }
        }

        @Test func storesAreCreatedAndDeletedOverHTTP() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let created = try client.request("PUT", "/stores/room-1", body: #"{"reducer":"Counter","state":{"count":7}}"#)
                #expect(created.status == 201)
                #expect(created.bodyText == #"{"store":"room-1","version":0,"state":{"count":7}}"#)
                #expect(try client.request("PUT", "/stores/room-1", body: #"{"reducer":"Counter"}"#).status == 200)
                #expect(try client.request("PUT", "/stores/room-1", body: #"{"reducer":"TodoList"}"#).status == 409)
                #expect(try client.request("PUT", "/stores/x", body: #"{"reducer":"Nope"}"#).status == 400)
                #expect(try client.request("PUT", "/stores/bad%20name", body: #"{"reducer":"Counter"}"#).status == 400)
                #expect(try client.request("PUT", "/stores/comma", body: #"{"reducer":"Counter",}"#).status == 400)
                #expect(try client.request("GET", "/stores").bodyText.contains(#"{"name":"room-1","reducer":"Counter","version":0}"#))

                let ws = try TestWebSocketClient(port: server.port, path: "/stores/room-1/ws")
                defer { ws.close() }
                #expect((try ws.receiveJSON(timeout: .seconds(5))["state"] as? [String: Any])?["count"] as? Int == 7)
                #expect(try client.request("DELETE", "/stores/room-1").status == 204)
                let last = try ws.receiveJSON(timeout: .seconds(5))
                #expect(last["type"] as? String == "deleted")
                #expect(try ws.receiveClose(timeout: .seconds(5)) == 1000)
                #expect(try client.request("GET", "/stores/room-1").status == 404)
                #expect(try client.request("DELETE", "/stores/room-1").status == 404)
            }
        }

        @Test func serverSentEventsStreamAndResumeWithLastEventID() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let sse = try SSEReader(port: server.port, path: "/stores/counter/events")
                defer { sse.close() }
                let first = try sse.next()
                #expect(first.event == "state")
                #expect(first.id.hasSuffix("-0"))
                _ = try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#)
                let second = try sse.next()
                #expect(second.id.hasSuffix("-1"))
                #expect(second.data.contains(#""count":1"#))
                _ = try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#)

                let resumed = try SSEReader(port: server.port, path: "/stores/counter/events", lastEventID: first.id)
                defer { resumed.close() }
                let patch = try resumed.next()
                #expect(patch.event == "patch")
                #expect(patch.id.hasSuffix("-2"))
                #expect(patch.data.contains(#""base":0"#))
            }
        }

        @Test func aClientThatNeverReadsStaysBoundedThenGetsTheNewestState() async throws {
            let streams = ServerConfigurationStreams.small
            try await TestServer.with(streams: streams) { server in
                let port = server.port
                let silent = try TestWebSocketClient(port: port, path: "/stores/counter/ws")
                defer { silent.close() }
                let before = residentBytes()
                let client = try TestHTTPClient(port: port)
                defer { client.close() }
                let batch = "[" + Array(repeating: #"{"type":"increment"}"#, count: 10_000).joined(separator: ",") + "]"
                for _ in 0..<10 { _ = try client.request("POST", "/stores/counter/actions", body: batch) }
                let growth = residentBytes() - before
                // Sanitizers keep freed memory in quarantine, so resident size says nothing there.
                if ProcessInfo.processInfo.environment["STATEHOUSE_SANITIZER"] == nil {
                    #expect(growth < 10 << 20, "server memory grew by \(growth) bytes")
                }
                var last: [String: Any] = [:]
                var messages = 0
                while last["version"] as? Int != 100_000 {
                    last = try silent.receiveJSON(timeout: .seconds(10))
                    messages += 1
                }
                #expect(messages < 100_000)
                #expect((last["state"] as? [String: Any])?["count"] as? Int == 100_000
                    || last["type"] as? String == "patch")
            }
        }

        @Test func resumeOutsideTheHistoryGetsASnapshot() async throws {
            let streams = ServerConfiguration.Streams(historySize: 4)
            try await TestServer.with(streams: streams) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let tag = try #require(try client.request("GET", "/stores/counter").field("ETag"))
                let epoch = String(tag.dropFirst().prefix { $0 != "-" })
                for _ in 0..<10 { _ = try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#) }
                let ws = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws?epoch=\(epoch)&since=1")
                defer { ws.close() }
                let first = try ws.receiveJSON(timeout: .seconds(5))
                #expect(first["type"] as? String == "state")
                #expect(first["resumed"] as? Bool == false)
                #expect(first["version"] as? Int == 10)
                let inside = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws?epoch=\(epoch)&since=8")
                defer { inside.close() }
                #expect(try inside.receiveJSON(timeout: .seconds(5))["type"] as? String == "patch")
            }
        }

        @Test func serverSentEventsHeartbeat() async throws {
            let streams = ServerConfiguration.Streams(sseHeartbeatMs: 100)
            try await TestServer.with(streams: streams) { server in
                let socket = try TestSocket(port: server.port)
                defer { socket.close() }
                try socket.send("GET /stores/counter/events HTTP/1.1\r\nHost: x\r\n\r\n")
                var text = ""
                let deadline = ContinuousClock.now + .seconds(5)
                while !text.contains(": heartbeat"), ContinuousClock.now < deadline {
                    let bytes = try socket.receive(deadline: deadline)
                    if bytes.isEmpty { break }
                    text += String(decoding: bytes, as: UTF8.self)
                }
                #expect(text.contains(": heartbeat"))
            }
        }

        @Test func aClientBehindForTooLongIsClosedWith4008() async throws {
            let streams = ServerConfiguration.Streams(writeHighWaterBytes: 1024, maxLagSeconds: 1)
            try await TestServer.with(streams: streams) { server in
                let silent = try TestWebSocketClient(port: server.port, path: "/stores/todos/ws")
                defer { silent.close() }
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                // Large states (up to ~1.2 MB each, ~36 MB in all) fill the socket buffers of a client that never
                // reads, so the subscriber is behind; then let the allowed lag pass (the timeout under test), then
                // change the state again: the server drops the subscriber.
                let text = String(repeating: "x", count: 20_000)
                for _ in 0..<60 {
                    _ = try client.request("POST", "/stores/todos/actions", body: #"{"type":"add","payload":{"text":"\#(text)"}}"#)
                }
                try await Task.sleep(for: .milliseconds(1_200))
                _ = try client.request("POST", "/stores/todos/actions", body: #"{"type":"add","payload":{"text":"last"}}"#)
                #expect(try silent.receiveClose(timeout: .seconds(20)) == 4008)
            }
        }
    }
}


/// Resident set size of this process (the in-process server and the test), bytes.
func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kb = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kb * 1024
}