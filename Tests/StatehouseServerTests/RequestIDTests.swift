import Foundation
import StatehouseServer
import StatehouseTestClients
import Testing

extension ServerTests {
    /// `X-Request-Id`: kept when the client's is 1–128 visible ASCII characters, made by the server otherwise; echoed
    /// on every response (errors, 304, 101, SSE, refusals of malformed requests) and written in the request's log
    /// lines. Real server on port 0, real clients.
    @Suite struct RequestIDTests {
        /// A made id: the process's tag (4 base-36 characters), the loop's index, `-`, a base-36 count.
        static func isMade(_ id: String?) -> Bool {
            guard let id, let dash = id.firstIndex(of: "-") else { return false }
            let (head, tail) = (id[..<dash], id[id.index(after: dash)...])
            let base36 = Set("0123456789abcdefghijklmnopqrstuvwxyz")
            return head.count >= 5 && !tail.isEmpty && head.allSatisfy(base36.contains) && tail.allSatisfy(base36.contains)
        }

        @Test func theClientsIdIsEchoedOnEveryResponseAndLogged() async throws {
            let handler = InMemoryLogHandler()
            try await LoggingTests.withServer(handler) { port in
                let client = try TestHTTPClient(port: port)
                defer { client.close() }
                let ok = try client.request("GET", "/stores/counter", fields: [("X-Request-Id", "trace-42/a:b")])
                #expect(ok.status == 200 && ok.field("X-Request-Id") == "trace-42/a:b")
                let missing = try client.request("GET", "/stores/nope", fields: [("X-Request-Id", "missing-1")])
                #expect(missing.status == 404 && missing.field("X-Request-Id") == "missing-1")
                let posted = try client.request(
                    "POST", "/stores/counter/actions", body: #"{"type":"increment"}"#, fields: [("x-request-id", "post-1")])
                #expect(posted.status == 200 && posted.field("X-Request-Id") == "post-1")
                let unchanged = try client.request("GET", "/stores/pinger", fields: [("X-Request-Id", "etag-1")])
                let notModified = try client.request(
                    "GET", "/stores/pinger", fields: [("If-None-Match", try #require(unchanged.field("ETag"))), ("X-Request-Id", "etag-2")])
                #expect(notModified.status == 304 && notModified.field("X-Request-Id") == "etag-2")
                let line = await handler.waitForRecord { $0.message.contains("GET /stores/nope") }
                #expect(line?.metadata["request_id"] == "missing-1")
                #expect(line?.metadata["conn"] != nil)
            }
        }

        /// No id, an empty one, one with a space or a control, one of 129 bytes: the server makes a new id for each
        /// request, and each is different.
        @Test(arguments: [nil, "", "has space", "tab\there", String(repeating: "x", count: 129), "é-not-ascii"])
        func anUnusableIdIsReplacedByAMadeOne(sent: String?) async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let fields = sent.map { [("X-Request-Id", $0)] } ?? []
                let first = try client.request("GET", "/stores/counter", fields: fields)
                let second = try client.request("GET", "/stores/counter", fields: fields)
                #expect(Self.isMade(first.field("X-Request-Id")), "\(first.field("X-Request-Id") ?? "none")")
                #expect(Self.isMade(second.field("X-Request-Id")))
                #expect(first.field("X-Request-Id") != second.field("X-Request-Id"))
            }
            let longest = String(repeating: "y", count: 128)
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                #expect(try client.request("GET", "/healthz", fields: [("X-Request-Id", longest)]).field("X-Request-Id") == longest)
            }
        }

        /// The 101 of a WebSocket upgrade, the head of an SSE stream, and the 400 of a malformed request carry one.
        @Test func upgradesStreamsAndRefusalsCarryAnId() async throws {
            try await TestServer.with { server in
                var fields = TestWebSocketClient.handshakeFields(port: server.port)
                fields.append(("X-Request-Id", "ws-1"))
                let upgrade = try TestWebSocketClient.attemptHandshake(port: server.port, path: "/stores/counter/ws", fields: fields)
                #expect(upgrade.status == 101 && upgrade.field("X-Request-Id") == "ws-1")
                let made = try TestWebSocketClient.attemptHandshake(
                    port: server.port, path: "/stores/counter/ws", fields: TestWebSocketClient.handshakeFields(port: server.port))
                #expect(made.status == 101 && Self.isMade(made.field("X-Request-Id")))

                let stream = try SSEReader(port: server.port, path: "/stores/counter/events", fields: [("X-Request-Id", "sse-1")])
                #expect(stream.head.contains("X-Request-Id: sse-1\r\n"), "\(stream.head)")

                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                try client.sendRaw("GET /stores/counter HTTP/1.1\r\nHost: x\r\nBad Field: y\r\n\r\n")
                let refused = try client.readResponse(deadline: .now + .seconds(5))
                #expect(refused.status == 400 && Self.isMade(refused.field("X-Request-Id")))
            }
        }

        /// Browsers may send the field (preflight) and read it (`Access-Control-Expose-Headers`).
        @Test func corsExposesTheId() async throws {
            try await TestServer.with(configure: { $0.cors = CORSPolicy(allowedOrigins: ["https://app.example"]) }) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let response = try client.request("GET", "/stores/counter", fields: [("Origin", "https://app.example")])
                #expect(response.field("Access-Control-Expose-Headers")?.contains("X-Request-Id") == true)
                let preflight = try client.request("OPTIONS", "/stores/counter/actions", fields: [
                    ("Origin", "https://app.example"), ("Access-Control-Request-Method", "POST"),
                    ("Access-Control-Request-Headers", "x-request-id"),
                ])
                #expect(preflight.field("Access-Control-Allow-Headers")?.contains("X-Request-Id") == true)
            }
        }
    }
}
