import Foundation
import StatehouseServer
import StatehouseTestClients
import Testing

/// Limits and timeouts, each named after the rule it holds to. Every case is a small exact byte sequence.
extension ServerTests {
    @Suite struct HostileInputTests {
        static func deadline() -> ContinuousClock.Instant { .now + .seconds(5) }

        /// RFC 9112 §9.5 / slow-loris: a head that never completes gets 408 and the connection is closed.
        @Test func rfc9112_9_5_incompleteHeadTimesOutWith408() async throws {
            try await TestServer.with(timeouts: .init(headerTimeoutMs: 150)) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                try client.sendRaw("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: a")
                let response = try client.readResponse(deadline: Self.deadline())
                #expect(response.status == 408)
                #expect((try response.json()["error"] as? [String: Any])?["code"] as? String == "request_timeout")
                #expect(client.isClosedByPeer(deadline: Self.deadline()))
            }
        }

        /// A body that stops arriving gets 408 after `bodyTimeoutMs`.
        @Test func rfc9112_9_5_incompleteBodyTimesOutWith408() async throws {
            try await TestServer.with(timeouts: .init(bodyTimeoutMs: 150)) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                try client.sendRaw("POST /stores/counter/actions HTTP/1.1\r\nHost: x\r\nContent-Length: 20\r\n\r\n{\"ty")
                #expect(try client.readResponse(deadline: Self.deadline()).status == 408)
                #expect(client.isClosedByPeer(deadline: Self.deadline()))
            }
        }

        /// RFC 9112 §9.5: an idle keep-alive connection is closed after `idleTimeoutMs` (without a response).
        @Test func rfc9112_9_5_idleKeepAliveConnectionIsClosed() async throws {
            try await TestServer.with(timeouts: .init(idleTimeoutMs: 150)) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                #expect(try client.request("GET", "/healthz").status == 200)
                #expect(client.isClosedByPeer(deadline: Self.deadline()))
            }
        }

        /// The idle timeout counts from the last response: a connection used more often than `idleTimeoutMs` stays
        /// open over several timeout periods (the timer re-arms lazily), then closes once left idle.
        @Test func rfc9112_9_5_idleTimeoutRestartsAfterEveryResponse() async throws {
            try await TestServer.with(timeouts: .init(idleTimeoutMs: 200)) { server in
                try await blocking {
                    let client = try TestHTTPClient(port: server.port)
                    defer { client.close() }
                    let start = ContinuousClock.now
                    var lastResponse = start
                    while lastResponse - start < .milliseconds(700) {  // 3.5 timeout periods
                        Thread.sleep(forTimeInterval: 0.06)  // pacing the client, well inside the timeout
                        #expect(try client.request("GET", "/healthz").status == 200)
                        lastResponse = .now
                    }
                    #expect(client.isClosedByPeer(deadline: Self.deadline()))
                    #expect(ContinuousClock.now - lastResponse >= .milliseconds(150), "closed too early")
                }
            }
        }

        /// A connection handed to a WebSocket or an SSE stream leaves the HTTP timeouts behind: past `idleTimeoutMs`
        /// both streams still work and the server still answers (its HTTP session's timer used to fire on a freed
        /// session and stop the process).
        @Test func upgradedConnectionsOutliveTheHTTPIdleTimeout() async throws {
            try await TestServer.with(timeouts: .init(idleTimeoutMs: 100)) { server in
                try await blocking {
                    let ws = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
                    defer { ws.close() }
                    #expect(try ws.receiveJSON(timeout: .seconds(5))["version"] as? Int == 0)
                    let sse = try SSEReader(port: server.port, path: "/stores/counter/events")
                    defer { sse.close() }
                    #expect(try sse.next().event == "state")
                    Thread.sleep(forTimeInterval: 0.35)  // the timeout under test passes three times over
                    let client = try TestHTTPClient(port: server.port)
                    defer { client.close() }
                    #expect(try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#).status == 200)
                    #expect(try ws.receiveJSON(timeout: .seconds(5))["version"] as? Int == 1)
                    #expect(try sse.next().id.hasSuffix("-1"))
                }
            }
        }

        /// RFC 9110 §10.1.1: `Expect: 100-continue` gets `100 Continue` before the body is sent.
        @Test func rfc9110_10_1_1_expect100ContinueIsAnswered() async throws {
            try await TestServer.with { server in
                let socket = try TestSocket(port: server.port)
                defer { socket.close() }
                try socket.send("POST /stores/counter/actions HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 20\r\n\r\n")
                let interim = String(decoding: try socket.receive(deadline: Self.deadline()), as: UTF8.self)
                #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
                try socket.send(#"{"type":"increment"}"#)
                let final = String(decoding: try socket.receive(deadline: Self.deadline()), as: UTF8.self)
                #expect(final.hasPrefix("HTTP/1.1 200 OK\r\n"))
            }
        }

        /// RFC 9110 §10.1.1: an expectation other than 100-continue is 417.
        @Test func rfc9110_10_1_1_unknownExpectationIs417() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                try client.sendRaw("POST /stores/counter/actions HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 2\r\n\r\n{}")
                #expect(try client.readResponse(deadline: Self.deadline()).status == 417)
            }
        }

        /// RFC 6585 §5: too many header fields is 431.
        @Test func rfc6585_5_tooManyHeaderFieldsIs431() async throws {
            try await TestServer.with(limits: .init(maxHeaderFields: 10)) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let fields = (0..<20).map { "X-F\($0): v\r\n" }.joined()
                try client.sendRaw("GET /healthz HTTP/1.1\r\nHost: x\r\n\(fields)\r\n")
                #expect(try client.readResponse(deadline: Self.deadline()).status == 431)
            }
        }

        /// RFC 9110 §15.6.4: past `maxConnections`, a new connection gets 503 with `Retry-After` and is closed.
        @Test func rfc9110_15_6_4_connectionLimitIs503WithRetryAfter() async throws {
            try await TestServer.with(limits: .init(maxConnections: 2)) { server in
                let first = try TestHTTPClient(port: server.port)
                defer { first.close() }
                let second = try TestHTTPClient(port: server.port)
                defer { second.close() }
                #expect(try first.request("GET", "/healthz").status == 200)
                #expect(try second.request("GET", "/healthz").status == 200)
                let third = try TestHTTPClient(port: server.port)
                defer { third.close() }
                let refused = try third.readResponse(deadline: Self.deadline())
                #expect(refused.status == 503)
                #expect(refused.field("Retry-After") == "5")
                first.close()
                // Once a connection is gone there is room again (polled with a deadline: the close is asynchronous).
                let until = ContinuousClock.now + .seconds(5)
                var status = 0
                while status != 200, ContinuousClock.now < until {
                    let next = try TestHTTPClient(port: server.port)
                    status = (try? next.request("GET", "/healthz").status) ?? 0
                    next.close()
                }
                #expect(status == 200)
            }
        }

        /// RFC 6455 §5.5.2: an idle WebSocket is pinged; one that never answers is dropped.
        @Test func rfc6455_5_5_2_unansweredPingDropsTheConnection() async throws {
            try await TestServer.with(timeouts: .init(pingIntervalMs: 100, pongTimeoutMs: 100)) { server in
                let ws = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
                defer { ws.close() }
                _ = try ws.receiveJSON(timeout: .seconds(5))
                #expect(try ws.receive(timeout: .seconds(5)) == .ping(Array("statehouse".utf8)))
                // The test client does not answer pings by itself: the server gives up and closes TCP.
                #expect(try ws.receiveClose(timeout: .seconds(5)) == nil)
            }
        }

        /// RFC 6455 §5.5.3: a client that answers pings stays connected.
        @Test func rfc6455_5_5_3_answeredPingKeepsTheConnection() async throws {
            try await TestServer.with(timeouts: .init(pingIntervalMs: 100, pongTimeoutMs: 200)) { server in
                let ws = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
                defer { ws.close() }
                _ = try ws.receiveJSON(timeout: .seconds(5))
                for _ in 0..<3 {
                    guard case .ping(let payload) = try ws.receive(timeout: .seconds(5)) else {
                        Issue.record("expected a ping")
                        return
                    }
                    try ws.sendPong(payload)
                }
                try ws.sendText(#"{"type":"action","ref":"alive","action":{"type":"increment"}}"#)
                let next = try ws.receiveJSON(timeout: .seconds(5))
                #expect(next["version"] as? Int == 1)
            }
        }
    }
}
