import JSON
@testable import StatehouseServer
import Testing
import UVLoop
import WebSocket

/// Each version's messages are built once and shared: snapshots and catch-ups by every subscriber that needs them,
/// and a large message's bytes by its framings (never copied per subscriber or per framing).
@Suite struct SharedMessagesTests {
    static func todos(_ count: Int) -> [UInt8] {
        let items = (0..<count).map { #"{"done":false,"id":\#($0),"text":"item \#($0) \#(String(repeating: "x", count: 90))"}"# }
        return Array(#"{"items":[\#(items.joined(separator: ","))],"nextID":\#(count)}"#.utf8)
    }

    /// `size CRLF id: … LF event: … LF data: <json> LF LF CRLF`, written out by hand.
    static func sseChunk(id: String, event: String, data: [UInt8]) -> [UInt8] {
        let text = Array("id: \(id)\nevent: \(event)\ndata: ".utf8) + data + Array("\n\n".utf8)
        return Array(String(text.count, radix: 16).utf8) + [13, 10] + text + [13, 10]
    }

    @Test func snapshotsAndCatchUpsAreBuiltOncePerVersion() throws {
        let fanout = StoreFanout(storeName: "t", historySize: 8, initialJSON: Self.todos(3))
        fanout.stateChanged(version: 1, json: Self.todos(4))
        fanout.stateChanged(version: 2, json: Self.todos(5))
        let epoch = fanout.epoch
        let first = try #require(fanout.catchUp(.whole, from: nil, countingOn: nil).0)
        #expect(fanout.catchUp(.whole, from: nil, countingOn: nil).0 === first, "one snapshot per version")
        let behind = StreamPosition(epoch: epoch, version: 1)
        let patch = try #require(fanout.catchUp(.whole, from: behind, countingOn: nil).0)
        #expect(patch.kind == .patch && patch.base == 1 && patch.version == 2)
        #expect(fanout.catchUp(.whole, from: behind, countingOn: nil).0 === patch, "one catch-up per version and base")
        let ops = try JSONPatch.parse(try #require(JSONValue(parsing: patch.json).objectValue?["ops"]).serialized())
        #expect(try JSONPatch.apply(ops, to: JSONValue(parsing: Self.todos(4))) == (try JSONValue(parsing: Self.todos(5))))
        #expect(fanout.catchUp(.whole, from: StreamPosition(epoch: epoch, version: 2), countingOn: nil).0 == nil)
        let stale = try #require(fanout.catchUp(.whole, from: StreamPosition(epoch: "other", version: 1), countingOn: nil).0)
        #expect(stale.json.starts(with: Array(#"{"type":"state","store":"t","epoch":"\#(epoch)","version":2,"resumed":false,"#.utf8)))
        fanout.stateChanged(version: 3, json: Self.todos(6))
        #expect(fanout.catchUp(.whole, from: nil, countingOn: nil).0 !== first, "a new version, a new snapshot")
        #expect(fanout.catchUp(.whole, from: nil, countingOn: nil).0?.version == 3)
    }

    /// A large message's framings write its body buffer itself, after a small head; a small one is one buffer.
    @Test func largeMessagesShareTheirBytesWithTheirFramings() throws {
        let json = Self.todos(1_000)
        #expect(json.count > OutboundFrame.sharedBodyBytes)
        let message = StreamMessage(kind: .state, version: 7, epoch: "e", json: json)
        let frame = message.webSocketFrame
        #expect(frame.body === message.body)
        #expect(frame.bytes == WebSocketFrameEncoder.frame(opcode: .text, payload: json))
        let tagged = WebSocketSubscription.tagged(message.body, sub: "s1")
        #expect(tagged.body?.base == message.body.base + 1, "the body shared, from its second byte")
        #expect(tagged.bytes == WebSocketFrameEncoder.frame(opcode: .text, payload: Array(#"{"sub":"s1","#.utf8) + json.dropFirst()))
        let event = message.serverSentEvent
        #expect(event.body === message.body)
        #expect(event.bytes == Self.sseChunk(id: "e-7", event: "state", data: json))

        let small = StreamMessage(kind: .state, version: 1, epoch: "e", json: Array(#"{"a":1}"#.utf8))
        #expect(small.webSocketFrame.body == nil && small.webSocketFrame.tail == nil)
        #expect(small.webSocketFrame.bytes == WebSocketFrameEncoder.frame(opcode: .text, payload: small.json))
        #expect(small.serverSentEvent.bytes == Self.sseChunk(id: "e-1", event: "state", data: small.json))
        #expect(WebSocketSubscription.tagged(small.body, sub: "s").bytes
            == WebSocketFrameEncoder.frame(opcode: .text, payload: Array(#"{"sub":"s","a":1}"#.utf8)))
    }
}
