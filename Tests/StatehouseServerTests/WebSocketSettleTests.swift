import Foundation
import StatehouseTestClients
import Testing

/// `"wait":"settled"` on WebSocket `action` messages: the ack once the action and its effects finished, or
/// `settle_timeout`; answers in send order; idempotency as on HTTP; `shutting_down` at shutdown.
extension ServerTests {
    @Suite struct WebSocketSettleTests {
        /// A store socket on counter and the version of its first snapshot.
        private static func counterSocket(_ server: TestServer) throws -> (TestWebSocketClient, Int) {
            let ws = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
            let first = try ws.receiveJSON(timeout: .seconds(5))
            guard let version = first["version"] as? Int else { throw TestFailure("no snapshot: \(first)") }
            return (ws, version)
        }

        private static func later(_ ms: Int, ref: String, _ extra: String = #","wait":"settled""#) -> String {
            #"{"type":"action","ref":"\#(ref)","action":{"type":"incrementLater","payload":{"ms":\#(ms)}}\#(extra)}"#
        }

        /// The settled ack comes after the state message of the effect's increment and carries its version; a plain
        /// ack of the same action comes at once with the version before it.
        @Test func settledAckFollowsTheEffectsChange() async throws {
            try await TestServer.with { server in
                let (ws, start) = try Self.counterSocket(server)
                defer { ws.close() }
                try ws.sendText(Self.later(100, ref: "plain", ""))
                let plain = try ws.receiveJSON(timeout: .seconds(5))
                #expect(plain["type"] as? String == "ack")
                #expect(plain["version"] as? Int == start)
                #expect(plain["settled"] == nil)
                let effect = try ws.receiveJSON(timeout: .seconds(5))
                #expect(effect["version"] as? Int == start + 1)

                try ws.sendText(Self.later(100, ref: "s"))
                let state = try ws.receiveJSON(timeout: .seconds(5))
                #expect(state["type"] as? String == "state", "the ack must wait for the effect: \(state)")
                #expect((state["state"] as? [String: Any])?["count"] as? Int == 2)
                let ack = try ws.receiveJSON(timeout: .seconds(5))
                #expect(ack["type"] as? String == "ack")
                #expect(ack["ref"] as? String == "s")
                #expect(ack["settled"] as? Bool == true)
                #expect(ack["version"] as? Int == start + 2)
            }
        }

        /// Past `timeout_ms`: `settle_timeout` with the action's `ref` and the version at the deadline; the effect's
        /// state message still comes.
        @Test func settleTimeoutCarriesTheVersionAndStateKeepsFlowing() async throws {
            try await TestServer.with { server in
                let (ws, start) = try Self.counterSocket(server)
                defer { ws.close() }
                try ws.sendText(Self.later(600, ref: "t", #","wait":"settled","timeout_ms":20"#))
                let error = try ws.receiveJSON(timeout: .seconds(5))
                #expect(error["type"] as? String == "error")
                #expect(error["code"] as? String == "settle_timeout")
                #expect(error["ref"] as? String == "t")
                #expect(error["version"] as? Int == start)
                #expect((error["message"] as? String)?.contains("20 ms") == true)
                let state = try ws.receiveJSON(timeout: .seconds(5))
                #expect(state["type"] as? String == "state")
                #expect(state["version"] as? Int == start + 1)
            }
        }

        /// Answers in send order: a plain action sent after a settled one is acked after it (its state message is not
        /// held back); and a settled action with no effects sent after a slow settled one waits for it too.
        @Test func answersKeepSendOrder() async throws {
            try await TestServer.with { server in
                let (ws, start) = try Self.counterSocket(server)
                defer { ws.close() }
                try ws.sendText(Self.later(300, ref: "slow"))
                try ws.sendText(#"{"type":"action","ref":"plain","action":{"type":"increment"}}"#)
                try ws.sendText(#"{"type":"action","ref":"quick","action":{"type":"increment"},"wait":"settled"}"#)
                try ws.sendText(#"{"type":"action","ref":"bad","action":{"type":"nope"}}"#)
                var order: [String] = []
                var answers: [String: [String: Any]] = [:]
                var firstStateBeforeAnswers = false
                while order.count < 4 {
                    let message = try ws.receiveJSON(timeout: .seconds(5))
                    if message["type"] as? String == "state" {
                        if order.isEmpty, message["version"] as? Int == start + 1 { firstStateBeforeAnswers = true }
                        continue
                    }
                    let ref = message["ref"] as? String ?? "?"
                    order.append(ref)
                    answers[ref] = message
                }
                #expect(order == ["slow", "plain", "quick", "bad"])
                #expect(firstStateBeforeAnswers, "the plain action's state message is not held back")
                #expect(answers["slow"]?["version"] as? Int == start + 3)
                #expect(answers["plain"]?["version"] as? Int == start + 1)
                #expect(answers["plain"]?["settled"] == nil)
                #expect(answers["quick"]?["settled"] as? Bool == true)
                #expect(answers["bad"]?["code"] as? String == "invalid_action")
            }
        }

        /// `wait` and `timeout_ms` are checked, on both endpoints: `invalid_message` naming the field, with the `ref`.
        @Test func invalidWaitOrTimeoutNamesTheField() async throws {
            try await TestServer.with { server in
                let (ws, _) = try Self.counterSocket(server)
                defer { ws.close() }
                let multiplexed = try TestWebSocketClient(port: server.port, path: "/ws")
                defer { multiplexed.close() }
                let action = #""action":{"type":"increment"}"#
                let cases: [(String, String)] = [
                    (#""wait":"reduced""#, #""wait""#),
                    (#""wait":true"#, #""wait""#),
                    (#""wait":"settled","timeout_ms":600001"#, #""timeout_ms""#),
                    (#""wait":"settled","timeout_ms":-1"#, #""timeout_ms""#),
                    (#""wait":"settled","timeout_ms":1.5"#, #""timeout_ms""#),
                    (#""wait":"settled","timeout_ms":"5""#, #""timeout_ms""#),
                    (#""timeout_ms":5"#, #""timeout_ms""#),
                ]
                for (socket, store) in [(ws, ""), (multiplexed, #""store":"counter","#)] {
                    for (fields, named) in cases {
                        try socket.sendText(#"{"type":"action",\#(store)"ref":"w",\#(action),\#(fields)}"#)
                        let error = try socket.receiveJSON(timeout: .seconds(5))
                        #expect(error["code"] as? String == "invalid_message", "\(fields)")
                        #expect(error["ref"] as? String == "w", "\(fields)")
                        #expect((error["message"] as? String)?.contains(named) == true, "\(fields): \(error)")
                    }
                }
                // null counts as absent; 0 and 600000 are in range.
                try ws.sendText(#"{"type":"action","ref":"n",\#(action),"wait":null,"timeout_ms":null}"#)
                #expect(try ws.receiveJSON { $0["ref"] != nil }["type"] as? String == "ack")
                try ws.sendText(#"{"type":"action","ref":"z",\#(action),"wait":"settled","timeout_ms":0}"#)
                let zero = try ws.receiveJSON { $0["ref"] != nil }
                #expect(zero["ref"] as? String == "z")
                #expect(zero["type"] as? String == "ack" || zero["code"] as? String == "settle_timeout")
            }
        }

        /// Idempotency as on HTTP: the wait and its timeout count in "the same action"; a replay of a settled action
        /// is its settled ack (or its settle_timeout) again, across transports.
        @Test func idempotencyCountsTheWait() async throws {
            try await TestServer.with { server in
                let (ws, start) = try Self.counterSocket(server)
                defer { ws.close() }
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                func reply() throws -> [String: Any] { try ws.receiveJSON { $0["type"] as? String != "state" } }
                let increment = #""action":{"type":"increment"}"#

                try ws.sendText(#"{"type":"action","ref":"a","id":"k1",\#(increment),"wait":"settled","timeout_ms":5000}"#)
                let first = try reply()
                #expect(first["settled"] as? Bool == true)
                #expect(first["version"] as? Int == start + 1)
                try ws.sendText(#"{"type":"action","ref":"b","id":"k1",\#(increment),"wait":"settled","timeout_ms":5000}"#)
                let again = try reply()
                #expect(again["ref"] as? String == "b")
                #expect(again["settled"] as? Bool == true)
                #expect(again["replayed"] as? Bool == true)
                #expect(again["version"] as? Int == start + 1)
                for other in [#""wait":"settled","timeout_ms":6000"#, #""wait":"settled""#, #""timeout_ms":null"#] {
                    try ws.sendText(#"{"type":"action","ref":"c","id":"k1",\#(increment),\#(other)}"#)
                    #expect(try reply()["code"] as? String == "idempotency_key_reused", "\(other)")
                }

                // HTTP first, WebSocket retry: the same action, the same outcome.
                let post = try client.request(
                    "POST", "/stores/counter/actions?wait=settled&timeout_ms=7000", body: #"{"type":"increment"}"#,
                    fields: [("Idempotency-Key", "k2")])
                #expect(post.status == 200)
                let posted = try post.json()["version"] as? Int
                try ws.sendText(#"{"type":"action","ref":"d","id":"k2",\#(increment),"wait":"settled","timeout_ms":7000}"#)
                let retried = try reply()
                #expect(retried["replayed"] as? Bool == true)
                #expect(retried["settled"] as? Bool == true)
                #expect(retried["version"] as? Int == posted)
                try ws.sendText(#"{"type":"action","ref":"e","id":"k2",\#(increment)}"#)
                #expect(try reply()["code"] as? String == "idempotency_key_reused")

                // A timed-out settle replays as settle_timeout, marked replayed.
                try ws.sendText(Self.later(400, ref: "f", #","id":"k3","wait":"settled","timeout_ms":10"#))
                let timedOut = try reply()
                #expect(timedOut["code"] as? String == "settle_timeout")
                try ws.sendText(Self.later(400, ref: "g", #","id":"k3","wait":"settled","timeout_ms":10"#))
                let replayedTimeout = try reply()
                #expect(replayedTimeout["code"] as? String == "settle_timeout")
                #expect(replayedTimeout["ref"] as? String == "g")
                #expect(replayedTimeout["replayed"] as? Bool == true)
                #expect(replayedTimeout["version"] as? Int == timedOut["version"] as? Int)
            }
        }

        /// Shutdown while a settled action waits: `shutting_down` with its `ref` and the version, then Close 1001.
        @Test func shutdownAnswersAWaitingSettle() async throws {
            let server = try TestServer()
            defer { server.stop() }
            let (ws, start) = try Self.counterSocket(server)
            defer { ws.close() }
            try ws.sendText(Self.later(60_000, ref: "w", #","wait":"settled","timeout_ms":600000"#))
            try ws.sendText(#"{"type":"resync"}"#)  // answered at once: once it is here, the action is waiting
            #expect(try ws.receiveJSON(timeout: .seconds(5))["type"] as? String == "state")
            let stopping = Task { try await blocking { server.stop() } }
            let error = try ws.receiveJSON(timeout: .seconds(5))
            #expect(error["type"] as? String == "error")
            #expect(error["code"] as? String == "shutting_down")
            #expect(error["ref"] as? String == "w")
            #expect(error["version"] as? Int == start)
            #expect(try ws.receiveClose(timeout: .seconds(5)) == 1001)
            try await stopping.value
        }
    }
}
