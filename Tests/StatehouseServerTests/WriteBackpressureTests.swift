import Foundation
@testable import StatehouseServer
import StatehouseTestClients
import Testing

extension ServerTests {
    /// Write backpressure, the write-stall timeout and the lag rule (issue 12), each against a client that does not
    /// read (its socket's receive buffer kept small, so the server's writes back up after a few hundred KB).
    @Suite struct WriteBackpressureTests {
        /// Grows `todos` to about 60 KB of JSON.
        static func growTodos(port: UInt16) throws {
            let client = try TestHTTPClient(port: port)
            defer { client.close() }
            let text = String(repeating: "x", count: 60_000)
            let response = try client.request("POST", "/stores/todos/actions", body: #"{"type":"add","payload":{"text":"\#(text)"}}"#)
            #expect(response.status == 200)
        }

        /// `count` pipelined `GET /stores/todos`, the last one with `Connection: close` when asked.
        static func pipelinedGets(_ count: Int, closingLast: Bool = false) -> [UInt8] {
            let get = "GET /stores/todos HTTP/1.1\r\nHost: x\r\n\r\n"
            let last = closingLast ? "GET /stores/todos HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" : get
            return Array((String(repeating: get, count: count - 1) + last).utf8)
        }

        /// The attack of issue 12: a server with `highWater` and a 400 ms write stall, `todos` grown, and `count`
        /// pipelined GETs of it from a client that never reads; `body` gets the server and when the GETs were sent.
        static func attack(
            highWater: Int, gets count: Int, closingLast: Bool = false,
            _ body: (TestServer, ContinuousClock.Instant) async throws -> Void
        ) async throws {
            let streams = ServerConfiguration.Streams(writeHighWaterBytes: highWater)
            try await TestServer.with(streams: streams, timeouts: .init(writeStallMs: 400)) { server in
                try growTodos(port: server.port)
                let attacker = try TestSocket(port: server.port, receiveBufferBytes: 16_384)
                defer { attacker.close() }
                let start = ContinuousClock.now
                try attacker.send(pipelinedGets(count, closingLast: closingLast))
                try await body(server, start)
            }
        }

        /// Polls `condition` every 5 ms until it holds or `timeout` has passed; returns whether it held.
        static func eventually(within timeout: Duration, _ condition: () -> Bool) async throws -> Bool {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if condition() { return true }
                try await Task.sleep(for: .milliseconds(5))
            }
            return condition()
        }

        @Test func aPipeliningClientThatNeverReadsIsBoundedThenClosedAfterTheWriteStall() async throws {
            let highWater = 256 * 1024
            try await Self.attack(highWater: highWater, gets: 100) { server, start in  // ~6 MB of answers, never read
                // The server fills the socket and its queue up to the high-water mark, then stops answering (the old
                // code queued every answer: ~6 MB).
                #expect(try await Self.eventually(within: .seconds(5)) { server.server.unsentBytes() > highWater })
                var most = 0
                let window = ContinuousClock.now + .milliseconds(200)
                while ContinuousClock.now < window {
                    most = max(most, server.server.unsentBytes())
                    try await Task.sleep(for: .milliseconds(5))
                }
                #expect(most <= highWater + 70_000, "the server queued \(most) bytes for a client that reads nothing")

                let other = try TestHTTPClient(port: server.port)
                let asked = ContinuousClock.now
                #expect(try other.request("GET", "/stores/counter").status == 200)
                #expect(ContinuousClock.now - asked < .seconds(1))
                other.close()

                // Nothing read for writeStallMs: the connection is closed (the old code kept it forever).
                #expect(try await Self.eventually(within: .seconds(5)) { server.server.sessionCount() == 0 })
                #expect(ContinuousClock.now - start >= .milliseconds(400))
            }
        }

        @Test func aConnectionClosingAfterAnUnreadAnswerIsClosedAfterTheWriteStall() async throws {
            // A high-water mark above the whole answer: the `Connection: close` request is answered, and the
            // connection waits for its writes (draining) with megabytes unsent.
            try await Self.attack(highWater: 64 << 20, gets: 40, closingLast: true) { server, start async throws in  // ~2.4 MB
                #expect(try await Self.eventually(within: .seconds(5)) {
                    server.server.openConnectionCount() == 0 && server.server.unsentBytes() > 1 << 20
                })
                #expect(try await Self.eventually(within: .seconds(5)) { server.server.sessionCount() == 0 })
                #expect(ContinuousClock.now - start >= .milliseconds(400))
            }
        }

        /// POSTs batches of 10,000 increments to `counter` (one message each for a subscriber keeping up) until the
        /// subscriber is behind at three answers in a row, so the socket buffers are full and it stays behind;
        /// returns the batches sent.
        static func changeUntilStuckBehind(_ server: TestServer) throws -> Int {
            let client = try TestHTTPClient(port: server.port)
            defer { client.close() }
            let batch = "[" + Array(repeating: #"{"type":"increment"}"#, count: 10_000).joined(separator: ",") + "]"
            var batches = 0
            var streak = 0
            var wasBehind = false
            while streak < 3, batches < 100 {
                _ = try client.request("POST", "/stores/counter/actions", body: batch)
                batches += 1
                let behind = server.server.behindSubscriberCount() == 1
                // A subscriber that never reads cannot catch up: behind, then not, is the lag rule having closed it
                // already (a loaded machine took over `maxLagSeconds` for three batches). As good as stuck.
                if wasBehind, !behind { break }
                wasBehind = wasBehind || behind
                streak = behind ? streak + 1 : 0
            }
            return batches
        }

        @Test func aSubscriberThatStopsReadingGets4008FromTheClockNotAPingTimeout() async throws {
            // The keep-alive would drop it within 200 ms if it counted a ping stuck behind the backlog; the lag
            // rule fires 1 s after it fell behind, with no message delivered meanwhile.
            let streams = ServerConfiguration.Streams(writeHighWaterBytes: 16_384, maxLagSeconds: 1)
            let timeouts = ServerConfiguration.Timeouts(pingIntervalMs: 100, pongTimeoutMs: 100)
            try await TestServer.with(streams: streams, timeouts: timeouts) { server in
                let silent = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws", receiveBufferBytes: 16_384)
                defer { silent.close() }
                #expect(try silent.receiveJSON(timeout: .seconds(5))["type"] as? String == "state")
                #expect(try Self.changeUntilStuckBehind(server) < 100)
                // The subscriber's connection starts closing (4008 queued behind its backlog); nothing is read yet.
                #expect(try await Self.eventually(within: .seconds(5)) { server.server.openConnectionCount() == 0 })
                #expect(try silent.receiveClose(timeout: .seconds(10)) == 4008)
            }
        }

        @Test func anSSESubscriberBehindForTooLongIsDisconnectedByTheClock() async throws {
            let streams = ServerConfiguration.Streams(writeHighWaterBytes: 16_384, maxLagSeconds: 1)
            try await TestServer.with(streams: streams) { server in
                let silent = try TestSocket(port: server.port, receiveBufferBytes: 16_384)
                defer { silent.close() }
                try silent.send("GET /stores/counter/events HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try Self.changeUntilStuckBehind(server) < 100)
                #expect(try await Self.eventually(within: .seconds(5)) { server.server.sessionCount() == 0 })
            }
        }
    }
}
