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
    }
}
