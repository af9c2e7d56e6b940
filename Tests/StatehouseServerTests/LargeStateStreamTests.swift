import Foundation
import StatehouseTestClients
import Testing

extension ServerTests {
    /// A state above the shared-body size (64 KiB) reaches every kind of subscriber intact: its framings write the
    /// message's own buffer after a per-framing head.
    @Suite struct LargeStateStreamTests {
        static func putBody(items: Int) -> String {
            let list = (0..<items).map { #"{"done":false,"id":\#($0),"text":"item \#($0) \#(String(repeating: "y", count: 90))"}"# }
            return #"{"reducer":"TodoList","state":{"items":[\#(list.joined(separator: ","))],"nextID":\#(items)}}"#
        }

        static func items(_ message: [String: Any]) -> Int? {
            ((message["state"] as? [String: Any])?["items"] as? [Any])?.count
        }

        @Test func everySubscriberGetsALargeStateIntact() async throws {
            try await TestServer.with { server in
                let port = server.port
                let outcome = try await blocking { () -> [String: Bool] in
                    let client = try TestHTTPClient(port: port)
                    defer { client.close() }
                    var outcome: [String: Bool] = [:]
                    outcome["created"] = try client.request("PUT", "/stores/large", body: Self.putBody(items: 1_500)).status == 201
                    let whole = try TestWebSocketClient(port: port, path: "/stores/large/ws")
                    defer { whole.close() }
                    let patches = try TestWebSocketClient(port: port, path: "/stores/large/ws?format=patch")
                    defer { patches.close() }
                    let multiplexed = try TestWebSocketClient(port: port, path: "/ws")
                    defer { multiplexed.close() }
                    try multiplexed.sendText(#"{"type":"subscribe","id":"s1","store":"large"}"#)
                    let events = try SSEReader(port: port, path: "/stores/large/events")
                    let first = try whole.receiveJSON()
                    outcome["snapshot"] = Self.items(first) == 1_500 && first["version"] as? Int == 0
                    outcome["patch snapshot"] = Self.items(try patches.receiveJSON()) == 1_500
                    let tagged = try multiplexed.receiveJSON()
                    outcome["tagged snapshot"] = tagged["sub"] as? String == "s1" && Self.items(tagged) == 1_500
                    let event = try events.next()
                    let eventData = try jsonObject(event.data)
                    outcome["sse snapshot"] = event.event == "state" && Self.items(eventData) == 1_500

                    let add = #"{"type":"add","payload":{"text":"one more"}}"#
                    outcome["changed"] = try client.request("POST", "/stores/large/actions", body: add).status == 200
                    let next = try whole.receiveJSON()
                    outcome["state"] = Self.items(next) == 1_501 && next["version"] as? Int == 1
                    let patch = try patches.receiveJSON()
                    let ops = patch["ops"] as? [[String: Any]] ?? []
                    outcome["patch"] = patch["type"] as? String == "patch" && patch["base"] as? Int == 0
                        && ops.contains {
                            // The end of the list, by index or `-` (RFC 6902 §4.1): the same place.
                            $0["op"] as? String == "add" && ["/items/1500", "/items/-"].contains($0["path"] as? String ?? "")
                        }
                    let taggedNext = try multiplexed.receiveJSON()
                    outcome["tagged state"] = taggedNext["sub"] as? String == "s1" && Self.items(taggedNext) == 1_501
                    let nextEvent = try events.next()
                    let nextData = try jsonObject(nextEvent.data)
                    outcome["sse state"] = nextEvent.id.hasSuffix("-1") && Self.items(nextData) == 1_501
                    return outcome
                }
                for step in ["created", "snapshot", "patch snapshot", "tagged snapshot", "sse snapshot", "changed", "state",
                    "patch", "tagged state", "sse state"]
                {
                    #expect(outcome[step] == true, "\(step)")
                }
            }
        }
    }
}
