import Foundation
import StatehouseServer
import StatehouseTestClients
import Testing

extension ServerTests {
    /// HTTP (`Idempotency-Key`) and WebSocket (`"id"`) take one idempotency path and behave the same: a key names the
    /// same action on both, replays are marked on both, reuse and bad keys get the same error, and an action that was
    /// not applied leaves no key on either.
    @Suite struct IdempotencyParityTests {
        typealias Durability = ServerTests.DurabilityTests

        /// Runs `body` against a fresh server with an HTTP client and a WebSocket on `counter` (its first state read).
        private static func withBoth(_ body: (TestHTTPClient, TestWebSocketClient) throws -> Void) async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let socket = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
                defer { socket.close() }
                _ = try socket.receiveJSON()
                try body(client, socket)
            }
        }

        private static func post(_ client: TestHTTPClient, _ body: String, key: String, store: String = "counter") throws -> TestHTTPResponse {
            try client.request("POST", "/stores/\(store)/actions", body: body, fields: [("Idempotency-Key", key)])
        }

        private static func errorCode(_ response: TestHTTPResponse) throws -> String? {
            (try response.json()["error"] as? [String: Any])?["code"] as? String
        }

        /// The next ack or error on `socket` (state messages skipped).
        private static func reply(_ socket: TestWebSocketClient) throws -> [String: Any] {
            try socket.receiveJSON { $0["type"] as? String == "ack" || $0["type"] as? String == "error" }
        }

        private static func version(_ client: TestHTTPClient, _ store: String = "counter") throws -> Int? {
            try client.request("GET", "/stores/\(store)").json()["version"] as? Int
        }

        @Test func aKeyUsedOverHTTPReplaysOverWebSocketAndBack() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let first = try Self.post(client, #"{"type":"add","payload":{"amount":2}}"#, key: "k1")
                #expect(first.status == 200)
                #expect(first.field("Idempotent-Replayed") == nil)
                let socket = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
                defer { socket.close() }
                _ = try socket.receiveJSON()
                // The same action, spelt otherwise (member order, whitespace, meta): a replay, not a second reduce.
                try socket.sendText(#"{"type":"action","ref":"r","id":"k1","action":{ "payload":{"amount":2}, "type":"add", "meta":7 }}"#)
                let ack = try Self.reply(socket)
                #expect(ack["type"] as? String == "ack")
                #expect(ack["version"] as? Int == 1)
                #expect(ack["replayed"] as? Bool == true)
                let again = try Self.post(client, #"{ "type" : "add", "payload" : { "amount" : 2 } }"#, key: "k1")
                #expect(again.status == 200)
                #expect(again.bodyText == first.bodyText)
                #expect(again.field("Idempotent-Replayed") == "true")
                // And the other way: first over WebSocket, replayed over HTTP.
                try socket.sendText(#"{"type":"action","ref":"s","id":"k2","action":{"type":"increment"}}"#)
                let fresh = try Self.reply(socket)
                #expect(fresh["version"] as? Int == 2)
                #expect(fresh["replayed"] == nil)
                let replay = try Self.post(client, #"{"type":"increment"}"#, key: "k2")
                #expect(replay.field("Idempotent-Replayed") == "true")
                #expect(try replay.json()["version"] as? Int == 2)
                #expect(try Self.version(client) == 2)
            }
        }

        @Test func reusingAKeyForAnotherActionIsTheSameErrorOnBoth() async throws {
            try await Self.withBoth { client, socket in
                #expect(try Self.post(client, #"{"type":"increment"}"#, key: "k3").status == 200)
                let overHTTP = try Self.post(client, #"{"type":"decrement"}"#, key: "k3")
                #expect(overHTTP.status == 422)
                #expect(try Self.errorCode(overHTTP) == "idempotency_key_reused")
                try socket.sendText(#"{"type":"action","ref":"x","id":"k3","action":{"type":"decrement"}}"#)
                let overWebSocket = try Self.reply(socket)
                #expect(overWebSocket["type"] as? String == "error")
                #expect(overWebSocket["ref"] as? String == "x")
                #expect(overWebSocket["code"] as? String == "idempotency_key_reused")
                // The first outcome stays bound to the key.
                let replay = try Self.post(client, #"{"type":"increment"}"#, key: "k3")
                #expect(replay.field("Idempotent-Replayed") == "true")
                #expect(try Self.version(client) == 1)
            }
        }

        @Test func anEmptyOrOverlongKeyIsRefusedOnBoth() async throws {
            try await Self.withBoth { client, socket in
                let long = String(repeating: "k", count: 256)
                for key in ["", long] {
                    let overHTTP = try Self.post(client, #"{"type":"increment"}"#, key: key)
                    #expect(overHTTP.status == 400)
                    #expect(try Self.errorCode(overHTTP) == "invalid_idempotency_key")
                    try socket.sendText(#"{"type":"action","ref":"r","id":"\#(key)","action":{"type":"increment"}}"#)
                    let overWebSocket = try Self.reply(socket)
                    #expect(overWebSocket["code"] as? String == "invalid_idempotency_key")
                }
                // 255 bytes is a key; nothing refused was applied.
                #expect(try Self.post(client, #"{"type":"increment"}"#, key: String(long.dropFirst())).status == 200)
                #expect(try Self.version(client) == 1)
            }
        }

        /// Keys are printable ASCII compared byte for byte: "café" and "cafe\u{301}" are equal Swift strings, and
        /// an invalid UTF-8 byte reads as U+FFFD, so such keys would collide; they are refused, and nothing applied.
        @Test func aKeyThatIsNotPrintableASCIIIsRefusedOnBoth() async throws {
            try await Self.withBoth { client, socket in
                for key in ["caf\u{E9}", "cafe\u{301}", "ключ"] {
                    let overHTTP = try Self.post(client, #"{"type":"increment"}"#, key: key)
                    #expect(overHTTP.status == 400, "\(key)")
                    #expect(try Self.errorCode(overHTTP) == "invalid_idempotency_key")
                    try socket.sendText(#"{"type":"action","ref":"r","id":"\#(key)","action":{"type":"increment"}}"#)
                    #expect(try Self.reply(socket)["code"] as? String == "invalid_idempotency_key")
                }
                try socket.sendText(#"{"type":"action","ref":"r","id":"a\u0001b","action":{"type":"increment"}}"#)
                #expect(try Self.reply(socket)["code"] as? String == "invalid_idempotency_key")
                // A raw 0xFF byte in the field (obs-text, RFC 9110 §5.5) is refused too.
                try client.sendRaw(Array("POST /stores/counter/actions HTTP/1.1\r\nHost: x\r\nIdempotency-Key: ".utf8) + [0xFF]
                    + Array("\r\nContent-Length: 20\r\n\r\n{\"type\":\"increment\"}".utf8))
                let raw = try client.readResponse(deadline: .now + .seconds(5))
                #expect(raw.status == 400)
                #expect(try Self.errorCode(raw) == "invalid_idempotency_key")
                #expect(try Self.version(client) == 0)
            }
        }

        @Test func aDuplicateInFlightGetsTheFirstOutcomeMarkedReplayedOnBoth() async throws {
            try await TestServer.with { server in
                let port = server.port
                // HTTP: eight connections at once with one key; one reduce, one fresh answer, seven replays.
                let bodies = try await withThrowingTaskGroup(of: (String, String?).self) { group in
                    for _ in 0..<8 {
                        group.addTask {
                            try await blocking {
                                let client = try TestHTTPClient(port: port)
                                defer { client.close() }
                                let response = try client.request(
                                    "POST", "/stores/counter/actions?wait=settled&timeout_ms=5000",
                                    body: #"{"type":"incrementLater","payload":{"ms":100}}"#, fields: [("Idempotency-Key", "f")])
                                return (response.bodyText, response.field("Idempotent-Replayed"))
                            }
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(Set(bodies.map(\.0)).count == 1)
                #expect(bodies.filter { $0.1 == "true" }.count == 7)
                // WebSocket: the repeat sent before the first is acked waits for it, and is acked after it, replayed.
                let socket = try TestWebSocketClient(port: port, path: "/stores/todos/ws")
                defer { socket.close() }
                _ = try socket.receiveJSON()
                try socket.sendText(#"{"type":"action","ref":"a","id":"w","action":{"type":"add","payload":{"text":"milk"}}}"#)
                try socket.sendText(#"{"type":"action","ref":"b","id":"w","action":{"type":"add","payload":{"text":"milk"}}}"#)
                let first = try Self.reply(socket)
                let second = try Self.reply(socket)
                #expect(first["ref"] as? String == "a" && first["replayed"] == nil)
                #expect(second["ref"] as? String == "b" && second["replayed"] as? Bool == true)
                #expect(first["version"] as? Int == second["version"] as? Int)
            }
        }

        /// An action whose batch could not be written leaves no key, on either transport: a retry with the key runs
        /// again (here: fails again, the database being full) instead of replaying the failure or calling it a reuse.
        @Test func anActionNotWrittenLeavesNoKeyOnBoth() async throws {
            let directory = Durability.DataDirectory()
            defer { directory.remove() }
            try await TestServer.with(configure: Durability.durable(directory) { $0.maxBytes = 256 * 1024 }) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let big = #"{"type":"add","payload":{"text":"\#(String(repeating: "x", count: 20_000))"}}"#
                var filled = false
                for index in 0..<100 where !filled {
                    filled = try Self.post(client, big, key: "fill-\(index)", store: "todos").status == 507
                }
                #expect(filled, "the database filled up")
                let before = try Self.version(client, "todos")
                let failed = try Self.post(client, big, key: "full", store: "todos")
                #expect(failed.status == 507)
                let retried = try Self.post(client, big, key: "full", store: "todos")
                #expect(retried.status == 507)
                #expect(retried.field("Idempotent-Replayed") == nil)
                let socket = try TestWebSocketClient(port: server.port, path: "/stores/todos/ws")
                defer { socket.close() }
                _ = try socket.receiveJSON()
                try socket.sendText(#"{"type":"action","ref":"w","id":"full","action":\#(big)}"#)
                let overWebSocket = try Self.reply(socket)
                #expect(overWebSocket["type"] as? String == "error")
                #expect(overWebSocket["code"] as? String == "storage_full")
                // Another action under the key is no reuse either: the key was never kept.
                let other = try Self.post(client, #"{"type":"add","payload":{"text":"y"}}"#, key: "full", store: "todos")
                #expect(other.status != 422)
                #expect(try Self.version(client, "todos") == (other.status == 200 ? before.map { $0 + 1 } : before))
            }
        }
    }
}
