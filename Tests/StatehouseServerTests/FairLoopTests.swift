import Foundation
import StatehouseServer
import StatehouseTestClients
import Testing

extension ServerTests {
    /// A fan-out to many subscribers is delivered in slices: the loop's other connections are served between them, and
    /// every subscriber still gets every version once, in order, with each ack after its state message.
    @Suite struct FairLoopTests {
        /// `count` increments as one JSON array body.
        static func batch(_ count: Int) -> String {
            "[" + Array(repeating: #"{"type":"increment"}"#, count: count).joined(separator: ",") + "]"
        }

        /// One loop, 2,000 subscribers of `counter`, one POST of 256 actions: a client of `todos` on the same loop is
        /// answered within 100 ms, each time, while the fan-out (512,000 deliveries) runs (4-14 ms in a debug build).
        /// Before slicing, one of its requests waited for the whole fan-out (about 0.4 s in a debug build).
        @Test func anotherStoresClientIsAnsweredWhileAFanOutRuns() async throws {
            try await TestServer.with(configure: { $0.eventLoops = 1 }) { server in
                let port = server.port
                try await blocking {
                    let subscribers = try (0..<2000).map { _ in try TestWebSocketClient(port: port, path: "/stores/counter/ws") }
                    defer { for subscriber in subscribers { subscriber.dropConnection() } }
                    let watcher = try TestWebSocketClient(port: port, path: "/stores/counter/ws")
                    defer { watcher.dropConnection() }
                    _ = try watcher.receiveJSON()  // the snapshot
                    let other = try TestHTTPClient(port: port)
                    defer { other.close() }
                    _ = try other.request("POST", "/stores/todos/actions", body: #"{"type":"add","payload":{"text":"warm"}}"#)
                    let publisher = try TestHTTPClient(port: port, timeout: .seconds(30))
                    defer { publisher.close() }
                    let body = Self.batch(256)
                    try publisher.sendRaw(
                        "POST /stores/counter/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                    // At once: the requests reach the loop while it reduces the batch and fans it out.
                    let start = ContinuousClock.now
                    var latencies: [Duration] = []
                    for index in 0..<5 {
                        let sent = ContinuousClock.now
                        let response = try other.request(
                            "POST", "/stores/todos/actions", body: #"{"type":"add","payload":{"text":"t\#(index)"}}"#)
                        latencies.append(ContinuousClock.now - sent)
                        #expect(response.status == 200)
                    }
                    let answered = ContinuousClock.now - start
                    _ = try watcher.receiveJSON(timeout: .seconds(30)) { $0["version"] as? Int == 256 }
                    let fanOut = ContinuousClock.now - start
                    let worst = latencies.max() ?? .zero
                    #expect(worst < .milliseconds(100), "latencies \(latencies) while the fan-out ran for \(fanOut)")
                    // The requests were answered while the fan-out still ran (else this test measured nothing).
                    #expect(answered < fanOut, "answered in \(answered), fan-out done after \(fanOut)")
                    #expect(try publisher.readResponse(deadline: .now + .seconds(30)).status == 200)
                }
            }
        }

        /// Many versions to many subscribers, delivered over many slices and rounds: every reader gets versions 1...544
        /// once and in order (two HTTP batches of 256, 32 WebSocket actions); subscribers that leave mid-delivery are skipped; a version waiter wakes; a WebSocket
        /// publisher's every ack follows the state message of its version.
        @Test func slicedDeliveriesKeepOrderAcksAndWaiters() async throws {
            try await TestServer.with(configure: { $0.eventLoops = 1 }) { server in
                let port = server.port
                try await blocking {
                    let readers = try (0..<32).map { _ in try TestWebSocketClient(port: port, path: "/stores/counter/ws") }
                    defer { for reader in readers { reader.dropConnection() } }
                    let leavers = try (0..<48).map { _ in try TestWebSocketClient(port: port, path: "/stores/counter/ws") }
                    for reader in readers { #expect(try reader.receiveJSON()["version"] as? Int == 0) }
                    let mux = try TestWebSocketClient(port: port, path: "/ws")
                    defer { mux.dropConnection() }
                    try mux.sendText(#"{"type":"subscribe","id":"s","store":"counter"}"#)
                    #expect(try mux.receiveJSON()["version"] as? Int == 0)
                    let waiter = try TestHTTPClient(port: port, timeout: .seconds(30))
                    defer { waiter.close() }
                    try waiter.sendRaw("GET /stores/counter?min_version=512&timeout_ms=30000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    let publisher = try TestHTTPClient(port: port, timeout: .seconds(30))
                    defer { publisher.close() }
                    let body = Self.batch(256)
                    let request = "POST /stores/counter/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                    try publisher.sendRaw(request + request)  // two batches: at least two rounds
                    // Leave mid-delivery: half by closing, the /ws subscription by unsubscribing.
                    for leaver in leavers { leaver.dropConnection() }
                    try mux.sendText(#"{"type":"unsubscribe","id":"s"}"#)
                    // A WebSocket publisher with its own subscription: each ack after the state of its version.
                    let wsPublisher = try TestWebSocketClient(port: port, path: "/stores/counter/ws")
                    defer { wsPublisher.dropConnection() }
                    let first = try wsPublisher.receiveJSON()["version"] as? Int ?? -1
                    for index in 0..<32 {
                        try wsPublisher.sendText(#"{"type":"action","ref":"r\#(index)","action":{"type":"increment"}}"#)
                    }
                    var newestState = first
                    var acks = 0
                    var seen: [String] = []
                    while acks < 32 {
                        let message = try wsPublisher.receiveJSON(timeout: .seconds(20))
                        let version = message["version"] as? Int ?? -1
                        seen.append("\(message["type"] ?? "?")\(version)")
                        if message["type"] as? String == "ack" {
                            acks += 1
                            if version > newestState { break }
                        } else if message["type"] as? String == "state" || message["type"] as? String == "patch" {
                            newestState = max(newestState, version)
                        }
                    }
                    #expect(acks == 32, "an ack came before the state of its version: first \(first), then \(seen)")
                    for reader in readers {
                        var versions: [Int] = []
                        while versions.count < 544 {
                            let message = try reader.receiveJSON(timeout: .seconds(20))
                            versions.append(message["version"] as? Int ?? -1)
                        }
                        #expect(versions == Array(1...544))
                    }
                    #expect(try waiter.readResponse(deadline: .now + .seconds(30)).status == 200)
                    // The /ws client: its unsubscribe is answered, and after that nothing of the subscription arrives
                    // (a subscription to another store marks the end).
                    var afterUnsubscribe = false
                    var strays = 0
                    while !afterUnsubscribe {
                        afterUnsubscribe = try mux.receiveJSON(timeout: .seconds(20))["type"] as? String == "unsubscribed"
                    }
                    try mux.sendText(#"{"type":"subscribe","id":"t","store":"todos"}"#)
                    while true {
                        let message = try mux.receiveJSON(timeout: .seconds(20))
                        if message["sub"] as? String == "s" { strays += 1 } else { break }
                    }
                    #expect(afterUnsubscribe)
                    #expect(strays == 0)
                    #expect(try publisher.readResponse(deadline: .now + .seconds(30)).status == 200)
                    #expect(try publisher.readResponse(deadline: .now + .seconds(30)).status == 200)
                }
            }
        }
    }
}
