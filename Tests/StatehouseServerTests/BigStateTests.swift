import Foundation
import StatehouseTestClients
import Testing

extension ServerTests {
    /// A big state changed one item at a time: `format=patch` streams get the changed items' ops (found from the
    /// state's chunks, docs/architecture.md "Big states"), and `Prefer: return=minimal` answers an action without the
    /// state (RFC 7240 §4.2).
    @Suite struct BigStateTests {
        @Test func preferReturnMinimalAnswersWithoutTheState() async throws {
            try await TestServer.with { server in
                let port = server.port
                try await blocking {
                    let client = try TestHTTPClient(port: port)
                    defer { client.close() }
                    let minimal = try client.request(
                        "POST", "/stores/counter/actions", body: #"{"type":"increment"}"#, fields: [("Prefer", "return=minimal")])
                    #expect(minimal.status == 200)
                    #expect(minimal.bodyText == #"{"store":"counter","version":1}"#)
                    #expect(minimal.field("Preference-Applied") == "return=minimal")
                    // Several preferences, parameters, a quoted value and another case (RFC 7240 §2).
                    let listed = try client.request(
                        "POST", "/stores/counter/actions", body: #"{"type":"increment"}"#,
                        fields: [("Prefer", #"respond-async, RETURN="Minimal"; x=1"#)])
                    #expect(listed.bodyText == #"{"store":"counter","version":2}"#)
                    #expect(listed.field("Preference-Applied") == "return=minimal")
                    let full = try client.request(
                        "POST", "/stores/counter/actions", body: #"{"type":"increment"}"#,
                        fields: [("Prefer", "return=representation")])
                    #expect(full.bodyText == #"{"store":"counter","version":3,"state":{"count":3}}"#)
                    #expect(full.field("Preference-Applied") == nil)
                    let plain = try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#)
                    #expect(plain.bodyText == #"{"store":"counter","version":4,"state":{"count":4}}"#)
                    #expect(plain.field("Preference-Applied") == nil)
                    // An idempotent replay follows the replaying request's preference.
                    let keyed = [("Idempotency-Key", "k-1"), ("Prefer", "return=minimal")]
                    let first = try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#, fields: keyed)
                    let again = try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#, fields: keyed)
                    #expect(first.bodyText == #"{"store":"counter","version":5}"#)
                    #expect(again.bodyText == first.bodyText && again.field("Idempotent-Replayed") == "true")
                }
            }
        }

        @Test func patchStreamsOfABigListGetTheChangedItemsOps() async throws {
            try await TestServer.with { server in
                let port = server.port
                let messages = try await blocking { () -> [String] in
                    let client = try TestHTTPClient(port: port)
                    defer { client.close() }
                    let put = try client.request("PUT", "/stores/big", body: LargeStateStreamTests.putBody(items: 2_000))
                    guard put.status == 201 else { throw TestFailure("PUT: \(put.status) \(put.bodyText)") }
                    let patches = try TestWebSocketClient(port: port, path: "/stores/big/ws?format=patch")
                    defer { patches.close() }
                    _ = try patches.receiveJSON()  // the snapshot
                    var texts: [String] = []
                    for action in [
                        #"{"type":"add","payload":{"text":"new"}}"#, #"{"type":"toggle","payload":{"id":1000}}"#,
                        #"{"type":"remove","payload":{"id":5}}"#,
                    ] {
                        let answer = try client.request(
                            "POST", "/stores/big/actions", body: action, fields: [("Prefer", "return=minimal")])
                        guard answer.status == 200 else { throw TestFailure("POST: \(answer.bodyText)") }
                        let message = try patches.receiveJSON()
                        let ops = try JSONSerialization.data(withJSONObject: message["ops"] ?? [], options: [.sortedKeys])
                        texts.append(String(decoding: ops, as: UTF8.self))
                    }
                    return texts
                }
                #expect(messages == [
                    #"[{"op":"replace","path":"\/nextID","value":2001},{"op":"add","path":"\/items\/-","value":{"done":false,"id":2000,"text":"new"}}]"#,
                    #"[{"op":"replace","path":"\/items\/1000","value":{"done":true,"id":1000,"text":"item 1000 \#(String(repeating: "y", count: 90))"}}]"#,
                    #"[{"op":"remove","path":"\/items\/5"}]"#,
                ])
            }
        }
    }
}
