import Foundation
import StatehouseTestClients
import Testing

/// `/ws`: many stores and projections over one socket.
extension ServerTests {
    @Suite struct MultiplexedWebSocketTests {
        @Test func subscribeActUnsubscribe() async throws {
            try await TestServer.with { server in
                let ws = try TestWebSocketClient(port: server.port, path: "/ws")
                defer { ws.close() }
                try ws.sendText(#"{"type":"subscribe","id":"c","store":"counter"}"#)
                let counter = try ws.receiveJSON(timeout: .seconds(5))
                #expect(counter["sub"] as? String == "c")
                #expect(counter["type"] as? String == "state")
                #expect(counter["store"] as? String == "counter")
                try ws.sendText(#"{"type":"subscribe","id":"n","store":"todos","path":"/nextID","format":"patch"}"#)
                let next = try ws.receiveJSON(timeout: .seconds(5))
                #expect(next["sub"] as? String == "n")
                #expect(next["state"] as? Int == 1)

                try ws.sendText(#"{"type":"action","store":"todos","ref":"t","action":{"type":"add","payload":{"text":"x"}}}"#)
                let patch = try ws.receiveJSON(timeout: .seconds(5))
                #expect(patch["sub"] as? String == "n")
                #expect(patch["type"] as? String == "patch")
                #expect((patch["ops"] as? [[String: Any]])?.first?["value"] as? Int == 2)
                #expect(try ws.receiveJSON(timeout: .seconds(5))["ref"] as? String == "t")

                try ws.sendText(#"{"type":"unsubscribe","id":"c"}"#)
                #expect(try ws.receiveJSON(timeout: .seconds(5))["type"] as? String == "unsubscribed")
                try ws.sendText(#"{"type":"action","store":"counter","ref":"quiet","action":{"type":"increment"}}"#)
                #expect(try ws.receiveJSON(timeout: .seconds(5))["ref"] as? String == "quiet")  // an ack, no state for "c"

                try ws.sendText(#"{"type":"subscribe","id":"x","store":"nope"}"#)
                #expect(try ws.receiveJSON(timeout: .seconds(5))["code"] as? String == "store_not_found")
                try ws.sendText(#"{"type":"action","ref":"r","action":{"type":"increment"}}"#)
                let noStore = try ws.receiveJSON(timeout: .seconds(5))
                #expect(noStore["code"] as? String == "invalid_message")
                #expect(noStore["ref"] as? String == "r")  // errors about a message carry its ref
                try ws.sendText(#"{"type":"action","store":"nope","ref":"r2","action":{"type":"increment"}}"#)
                let unknownStore = try ws.receiveJSON(timeout: .seconds(5))
                #expect(unknownStore["code"] as? String == "store_not_found")
                #expect(unknownStore["ref"] as? String == "r2")
                try ws.sendText(#"{"type":"subscribe","id":"n","store":"todos"}"#)
                #expect(try ws.receiveJSON(timeout: .seconds(5))["code"] as? String == "invalid_message")
            }
        }

        /// A malformed message says what is wrong: the field and what it must be, or where the JSON breaks.
        @Test func malformedMessagesNameTheirProblem() async throws {
            try await TestServer.with { server in
                let ws = try TestWebSocketClient(port: server.port, path: "/ws")
                defer { ws.close() }
                let cases: [(String, String)] = [
                    (#"{"type":"subscribe","id":"s","store":"counter","since":-1}"#, #""since" must be a version"#),
                    (#"{"type":"subscribe","id":"s","store":"counter","since":"1"}"#, #""since" must be a version"#),
                    (#"{"type":"subscribe","id":1,"store":"counter"}"#, #""id" must be a string"#),
                    (#"{"type":"subscribe","id":"s","store":"\ud800"}"#, "not valid JSON (lone surrogate"),
                    ("{\"type\":", "not valid JSON ("),
                ]
                for (message, expected) in cases {
                    try ws.sendText(message)
                    let error = try ws.receiveJSON(timeout: .seconds(5))
                    #expect(error["code"] as? String == "invalid_message", "\(message)")
                    #expect((error["message"] as? String)?.contains(expected) == true, "\(message): \(error)")
                }
            }
        }

        /// Every error answering a `subscribe`, `unsubscribe` or `resync` with an id names that subscription as its
        /// first key (`"sub"`); without a usable id it has none; an error answering an `action` keeps its `ref`.
        @Test func subscriptionErrorsNameTheirSubscription() async throws {
            try await TestServer.with { server in
                let ws = try TestWebSocketClient(port: server.port, path: "/ws")
                defer { ws.close() }
                try ws.sendText(#"{"type":"subscribe","id":"c","store":"counter"}"#)
                #expect(try ws.receiveJSON(timeout: .seconds(5))["type"] as? String == "state")
                let cases: [(String, String, String)] = [
                    (#"{"type":"subscribe","id":"x","store":"nope"}"#, "x", "store_not_found"),
                    (#"{"type":"subscribe","id":"c","store":"counter"}"#, "c", "invalid_message"),  // in use
                    (#"{"type":"subscribe","id":"y"}"#, "y", "invalid_message"),  // no store
                    (#"{"type":"subscribe","id":"p","store":"counter","path":"nope"}"#, "p", "invalid_query"),
                    (#"{"type":"subscribe","id":"f","store":"counter","format":"xml"}"#, "f", "invalid_query"),
                    (#"{"type":"subscribe","id":"e","store":"counter","epoch":"abc"}"#, "e", "invalid_query"),
                    (#"{"type":"subscribe","id":"s","store":"counter","since":-1}"#, "s", "invalid_message"),
                    (#"{"type":"subscribe","id":"t","store":7}"#, "t", "invalid_message"),
                    (#"{"type":"unsubscribe","id":"u"}"#, "u", "invalid_message"),
                    (#"{"type":"resync","id":"r"}"#, "r", "invalid_message"),
                ]
                for (message, sub, code) in cases {
                    try ws.sendText(message)
                    guard case .text(let text) = try ws.receive(timeout: .seconds(5)) else {
                        Issue.record("no text answer to \(message)")
                        continue
                    }
                    #expect(text.hasPrefix("{\"sub\":\"\(sub)\",\"type\":\"error\""), "\(message): \(text)")
                    #expect((try jsonObject(text))["code"] as? String == code, "\(message): \(text)")
                }
                // No usable id: no sub.
                for message in [#"{"type":"subscribe","store":"counter"}"#, #"{"type":"subscribe","id":"","store":"counter"}"#,
                                #"{"type":"subscribe","id":1,"store":"counter"}"#, #"{"type":"resync"}"#] {
                    try ws.sendText(message)
                    let error = try ws.receiveJSON(timeout: .seconds(5))
                    #expect(error["code"] as? String == "invalid_message", "\(message)")
                    #expect(error["sub"] == nil, "\(message): \(error)")
                }
                // Actions keep their ref (a field of the wrong type too), never a sub.
                try ws.sendText(#"{"type":"action","store":"counter","ref":"r","id":5,"action":{"type":"increment"}}"#)
                let badKey = try ws.receiveJSON(timeout: .seconds(5))
                #expect(badKey["ref"] as? String == "r")
                #expect(badKey["code"] as? String == "invalid_message")
                #expect(badKey["sub"] == nil)
            }
        }

        /// The 257th subscription is refused, naming it.
        /// A `ref` or `id` is echoed and kept: one over 255 bytes is refused, and not echoed (memory stays bounded).
        @Test func longRefsAndIdsAreRefusedWithoutAnEcho() async throws {
            try await TestServer.with { server in
                let ws = try TestWebSocketClient(port: server.port, path: "/ws")
                defer { ws.close() }
                let long = String(repeating: "x", count: 256)
                for message in [
                    #"{"type":"subscribe","id":"\#(long)","store":"counter"}"#,
                    #"{"type":"action","store":"counter","ref":"\#(long)","action":{"type":"increment"}}"#,
                ] {
                    try ws.sendText(message)
                    let error = try ws.receiveJSON(timeout: .seconds(5))
                    #expect(error["code"] as? String == "invalid_message")
                    #expect((error["message"] as? String)?.contains("256 bytes") == true)
                    #expect(error["sub"] == nil && error["ref"] == nil, "not echoed")
                }
                let fits = String(repeating: "y", count: 255)
                try ws.sendText(#"{"type":"subscribe","id":"\#(fits)","store":"counter"}"#)
                #expect(try ws.receiveJSON(timeout: .seconds(5))["sub"] as? String == fits)
            }
        }

        @Test func tooManySubscriptionsNamesTheRefusedOne() async throws {
            try await TestServer.with { server in
                let ws = try TestWebSocketClient(port: server.port, path: "/ws")
                defer { ws.close() }
                for index in 0..<256 {
                    try ws.sendText(#"{"type":"subscribe","id":"s\#(index)","store":"counter"}"#)
                    #expect(try ws.receiveJSON(timeout: .seconds(5))["sub"] as? String == "s\(index)")
                }
                try ws.sendText(#"{"type":"subscribe","id":"over","store":"counter"}"#)
                let error = try ws.receiveJSON(timeout: .seconds(5))
                #expect(error["sub"] as? String == "over")
                #expect(error["type"] as? String == "error")
                #expect((error["message"] as? String)?.contains("256") == true)
            }
        }

        /// A token without read scope for the store: `forbidden`, naming the subscription.
        @Test func forbiddenSubscriptionIsNamed() async throws {
            try await TestServer.with(configure: AccessControlTests.secured) { server in
                let ws = try TestWebSocketClient(
                    port: server.port, path: "/ws",
                    extraFields: AccessControlTests.bearer(AccessControlTests.reader) + [("Origin", "https://app.example")])
                defer { ws.close() }
                try ws.sendText(#"{"type":"subscribe","id":"todo","store":"todos"}"#)
                let error = try ws.receiveJSON(timeout: .seconds(5))
                #expect(error["sub"] as? String == "todo")
                #expect(error["code"] as? String == "forbidden")
                try ws.sendText(#"{"type":"subscribe","id":"mine","store":"counter"}"#)
                #expect(try ws.receiveJSON(timeout: .seconds(5))["sub"] as? String == "mine")
            }
        }
    }
}
