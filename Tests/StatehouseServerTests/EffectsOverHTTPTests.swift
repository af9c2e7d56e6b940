import Foundation
import StatehouseTestClients
import Testing

/// Settle-aware posts, reset and events, end to end.
extension ServerTests {
    @Suite struct EffectsOverHTTPTests {
        @Test func waitSettledAnswersAfterTheEffectsFinished() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let settled = try client.request(
                    "POST", "/stores/counter/actions?wait=settled&timeout_ms=5000",
                    body: #"{"type":"incrementLater","payload":{"ms":20}}"#)
                #expect(settled.status == 200)
                #expect(settled.bodyText == #"{"store":"counter","version":1,"state":{"count":1}}"#)
                // Without wait, the answer comes right after the reduce: the effect has not run yet.
                let reduced = try client.request(
                    "POST", "/stores/counter/actions", body: #"{"type":"incrementLater","payload":{"ms":60000}}"#)
                #expect(reduced.bodyText == #"{"store":"counter","version":1,"state":{"count":1}}"#)
                _ = try client.request("POST", "/stores/counter/actions", body: #"{"type":"cancelLater"}"#)
            }
        }

        @Test func settleTimeoutIs408WithTheCurrentState() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let response = try client.request(
                    "POST", "/stores/counter/actions?wait=settled&timeout_ms=30",
                    body: #"{"type":"incrementLater","payload":{"ms":60000}}"#)
                #expect(response.status == 408)
                let json = try response.json()
                #expect((json["error"] as? [String: Any])?["code"] as? String == "settle_timeout")
                #expect(json["version"] as? Int == 0)
                #expect((json["state"] as? [String: Any])?["count"] as? Int == 0)
                #expect(try client.request("GET", "/healthz").status == 200)  // connection kept
            }
        }

        @Test(arguments: ["wait=done", "timeout_ms=5", "wait=settled&timeout_ms=-1", "wait=settled&timeout_ms=x", "colour=red"])
        func badQueriesAreInvalidQuery(query: String) async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let response = try client.request("POST", "/stores/counter/actions?\(query)", body: #"{"type":"increment"}"#)
                #expect(response.status == 400)
                #expect((try response.json()["error"] as? [String: Any])?["code"] as? String == "invalid_query")
                #expect(try client.request("GET", "/stores/counter").bodyText.contains(#""version":0"#))
            }
        }

        /// Found by the wire fuzz target: a query value was echoed as it came, so a decoded line break split the message.
        @Test func aRefusedQueryValueIsQuotedInTheMessage() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                for (target, quoted) in [
                    ("/stores/counter/actions?wait=a%0D%0Ab", #"wait="a\r\nb""#),
                    ("/stores/counter/events?format=x%0Ay", #"format="x\ny""#),
                ] {
                    let method = target.hasSuffix("y") ? "GET" : "POST"
                    let response = try client.request(method, target, body: method == "POST" ? #"{"type":"increment"}"# : nil)
                    #expect(response.status == 400)
                    let message = (try response.json()["error"] as? [String: Any])?["message"] as? String ?? ""
                    #expect(message.hasPrefix(quoted), "\(message)")
                    #expect(!message.contains("\n") && !message.contains("\r"))
                }
            }
        }

        @Test func resetRestoresTheInitialStateAndStopsEffects() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                _ = try client.request("POST", "/stores/counter/actions", body: #"{"type":"add","payload":{"amount":5}}"#)
                _ = try client.request("POST", "/stores/counter/actions", body: #"{"type":"incrementLater","payload":{"ms":60000}}"#)
                let reset = try client.request("POST", "/stores/counter/reset")
                #expect(reset.status == 200)
                #expect(reset.bodyText == #"{"store":"counter","version":2,"state":{"count":0}}"#)
                // The pending effect was cancelled: settling a no-op now finds nothing left running.
                let settled = try client.request(
                    "POST", "/stores/counter/actions?wait=settled&timeout_ms=1000", body: #"{"type":"add","payload":{"amount":0}}"#)
                #expect(settled.status == 200)
                // Reset of an unchanged state does not bump the version.
                #expect(try client.request("POST", "/stores/counter/reset").bodyText == #"{"store":"counter","version":2,"state":{"count":0}}"#)
                #expect(try client.request("GET", "/stores/counter/reset").status == 405)
            }
        }

        @Test func eventsReachSubscribersInStreamOrder() async throws {
            try await TestServer.with { server in
                let ws = try TestWebSocketClient(port: server.port, path: "/stores/search/ws")
                defer { ws.close() }
                #expect(try ws.receiveJSON(timeout: .seconds(5))["version"] as? Int == 0)
                try ws.sendText(#"{"type":"action","ref":"s1","action":{"type":"select","payload":"kiwi"}}"#)
                let event = try ws.receiveJSON(timeout: .seconds(5))
                #expect(event["type"] as? String == "event")
                #expect(event["store"] as? String == "search")
                let fsa = try #require(event["event"] as? [String: Any])
                #expect(fsa["type"] as? String == "selected")
                #expect(fsa["payload"] as? String == "kiwi")
                let ack = try ws.receiveJSON(timeout: .seconds(5))
                #expect(ack["type"] as? String == "ack")
                #expect(ack["version"] as? Int == 0)  // events change no version

                // A debounced search with no result: state first, then its event.
                try ws.sendText(#"{"type":"action","ref":"q","action":{"type":"query","payload":"zz"}}"#)
                #expect(try ws.receiveJSON(timeout: .seconds(5))["version"] as? Int == 1)  // query text
                #expect(try ws.receiveJSON(timeout: .seconds(5))["type"] as? String == "ack")
                let results = try ws.receiveJSON(timeout: .seconds(5))
                #expect(results["version"] as? Int == 2)
                #expect((results["state"] as? [String: Any])?["searches"] as? Int == 1)
                let noResults = try ws.receiveJSON(timeout: .seconds(5))
                #expect((noResults["event"] as? [String: Any])?["type"] as? String == "noResults")
                #expect(((noResults["event"] as? [String: Any])?["payload"] as? [String: Any])?["query"] as? String == "zz")
            }
        }
    }
}
