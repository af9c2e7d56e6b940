import Foundation
import StatehouseServer
import StatehouseTestClients
import Testing

/// `GET /metrics`: Prometheus text exposition 0.0.4 of a live server, checked by `promtool check metrics` (Debian's
/// `prometheus` package) and against what the server's API says.
extension ServerTests {
    @Suite struct MetricsTests {
        static let scraper = "scraper-token-0123456789"
        static let reader = "reader-token-0123456789"

        @Test func liveServerExpositionPassesPromtoolAndAgreesWithTheAPI() async throws {
            try await TestServer.with(configure: { $0.eventLoops = 2 }) { server in
                try await blocking {
                    let client = try TestHTTPClient(port: server.port)
                    defer { client.close() }
                    for _ in 0..<3 {
                        #expect(try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#).status == 200)
                    }
                    let refusal = try client.request("POST", "/stores/counter/actions", body: #"{"type":"no_such_action"}"#)
                    #expect(refusal.status == 400)
                    let refusedCode = try #require((try refusal.json()["error"] as? [String: Any])?["code"] as? String)

                    let ws = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
                    defer { ws.close() }
                    #expect(try ws.receiveJSON()["version"] as? Int == 3)
                    let sse = try SSEReader(port: server.port, path: "/stores/counter/events")
                    defer { sse.close() }
                    #expect(try sse.next().event == "state")
                    // One more change, seen by both subscribers: then both hold the newest version.
                    #expect(try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#).status == 200)
                    #expect(try ws.receiveJSON()["version"] as? Int == 4)
                    #expect(try sse.next().id.hasSuffix("-4"))

                    let scrape = try client.request("GET", "/metrics")
                    #expect(scrape.status == 200)
                    #expect(scrape.field("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
                    let check = try Promtool.checkMetrics(scrape.body)
                    #expect(check.status == 0, "promtool check metrics: \(check.output)\n\(scrape.bodyText)")
                    #expect(check.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "lint: \(check.output)")

                    let samples = Exposition(scrape.bodyText)
                    let counter = #"store="counter",reducer="Counter""#
                    let version = try #require(try client.request("GET", "/stores/counter").json()["version"] as? Int)
                    #expect(samples["statehouse_store_version{\(counter)}"] == Double(version))
                    #expect(samples["statehouse_store_actions_reduced_total{\(counter)}"] == 4)
                    #expect(samples["statehouse_store_actions_dropped_total{\(counter)}"] == 0)
                    #expect(samples["statehouse_store_actions_refused_total{\(counter),code=\"\(refusedCode)\"}"] == 1)
                    #expect(samples["statehouse_store_subscribers{\(counter),transport=\"websocket\"}"] == 1)
                    #expect(samples["statehouse_store_subscribers{\(counter),transport=\"sse\"}"] == 1)
                    #expect(samples["statehouse_store_slowest_subscriber_lag_versions{\(counter)}"] == 0)
                    #expect(samples["statehouse_store_slowest_subscriber_lag_seconds{\(counter)}"] == 0)
                    #expect(samples["statehouse_store_catch_ups_total{\(counter)}"] == 0)
                    // Four reduces, each in one bucket; the store that reduced nothing has no histogram.
                    #expect(samples["statehouse_store_reduce_duration_seconds_count{\(counter)}"] == 4)
                    #expect(samples["statehouse_store_reduce_duration_seconds_bucket{\(counter),le=\"+Inf\"}"] == 4)
                    #expect(samples["statehouse_store_reduce_duration_seconds_bucket{\(counter),le=\"1\"}"] == 4)
                    #expect(samples["statehouse_store_reduce_duration_seconds_count{store=\"todos\",reducer=\"TodoList\"}"] == nil)
                    let turns = ["0", "1"].compactMap { samples["statehouse_loop_turn_duration_seconds_count{loop=\"\($0)\"}"] }
                    #expect(turns.count == 2 && turns.reduce(0, +) > 0)
                    #expect(["0", "1"].allSatisfy { samples["statehouse_loop_unsent_bytes{loop=\"\($0)\"}"] != nil })
                    #expect(samples["statehouse_storage_transactions_total{outcome=\"committed\"}"] == nil, "no storage configured")
                    #expect(samples["statehouse_store_subscribers{store=\"todos\",reducer=\"TodoList\",transport=\"sse\"}"] == 0)
                    #expect(samples["statehouse_store_version{store=\"todos\",reducer=\"TodoList\"}"] == 0)
                    // Three connections (this client, the WebSocket, the SSE stream) on two loops.
                    let connections = ["0", "1"].compactMap { samples["statehouse_loop_connections{loop=\"\($0)\"}"] }
                    #expect(connections.count == 2 && connections.reduce(0, +) == 3)
                    let read = ["0", "1"].compactMap { samples["statehouse_loop_read_bytes_total{loop=\"\($0)\"}"] }
                    #expect(read.count == 2 && read.reduce(0, +) > 0)
                    #expect((samples["statehouse_process_open_fds"] ?? 0) >= 3)
                    #expect((samples["statehouse_process_max_fds"] ?? 0) >= (samples["statehouse_process_open_fds"] ?? .infinity))
                    #expect((samples["statehouse_process_resident_memory_bytes"] ?? 0) > 1_000_000)

                    let head = try client.request("HEAD", "/metrics")
                    #expect(head.status == 200 && head.body.isEmpty)
                    #expect(try client.request("POST", "/metrics").status == 405)
                }
            }
        }

        /// A subscriber that stops reading falls behind: its lag shows in versions and in seconds; once it reads
        /// again it gets one catch-up message (counted) and the lag is back to 0.
        @Test func slowSubscriberLagInVersionsAndSecondsThenOneCountedCatchUp() async throws {
            let configure: (inout ServerConfiguration) -> Void = { $0.streams.writeHighWaterBytes = 4_096 }
            try await TestServer.with(configure: configure) { server in
                try await blocking {
                    let client = try TestHTTPClient(port: server.port)
                    defer { client.close() }
                    let slow = try TestWebSocketClient(port: server.port, path: "/stores/todos/ws", receiveBufferBytes: 4_096)
                    defer { slow.close() }
                    #expect(try slow.receiveJSON()["version"] as? Int == 0)
                    let todos = #"store="todos",reducer="TodoList""#
                    let text = String(repeating: "x", count: 2_000)
                    var version = 0
                    var samples = Exposition("")
                    let deadline = ContinuousClock.now + .seconds(20)
                    // Changes of ever bigger states until the unread socket backs up and the subscriber is behind.
                    repeat {
                        let answer = try client.request(
                            "POST", "/stores/todos/actions", body: #"{"type":"add","payload":{"text":"\#(text)"}}"#)
                        version = try #require(answer.json()["version"] as? Int)
                        samples = Exposition(try client.request("GET", "/metrics").bodyText)
                    } while (samples["statehouse_store_slowest_subscriber_lag_versions{\(todos)}"] ?? 0) < 2
                        && ContinuousClock.now < deadline
                    let lagVersions = try #require(samples["statehouse_store_slowest_subscriber_lag_versions{\(todos)}"])
                    #expect(lagVersions >= 2 && lagVersions <= Double(version))
                    let lagSeconds = try #require(samples["statehouse_store_slowest_subscriber_lag_seconds{\(todos)}"])
                    #expect(lagSeconds > 0 && lagSeconds < 20)
                    // The lag in seconds grows while nothing changes.
                    let again = Exposition(try client.request("GET", "/metrics").bodyText)
                    #expect((again["statehouse_store_slowest_subscriber_lag_seconds{\(todos)}"] ?? 0) > lagSeconds)

                    // Reading again: messages up to the newest version, the last one a catch-up.
                    while try slow.receiveJSON(timeout: .seconds(10))["version"] as? Int != version {}
                    let caughtUp = ContinuousClock.now + .seconds(10)
                    repeat {
                        samples = Exposition(try client.request("GET", "/metrics").bodyText)
                    } while samples["statehouse_store_slowest_subscriber_lag_versions{\(todos)}"] != 0 && ContinuousClock.now < caughtUp
                    #expect(samples["statehouse_store_slowest_subscriber_lag_versions{\(todos)}"] == 0)
                    #expect(samples["statehouse_store_slowest_subscriber_lag_seconds{\(todos)}"] == 0)
                    #expect(samples["statehouse_store_catch_ups_total{\(todos)}"] == 1)
                }
            }
        }

        /// With storage, the database writer's figures: transactions by outcome, writes, their duration histogram and
        /// the files' sizes; promtool accepts them.
        @Test func durableServerExposesItsWritersFigures() async throws {
            let directory = DurabilityTests.DataDirectory()
            defer { directory.remove() }
            try await TestServer.with(configure: DurabilityTests.durable(directory)) { server in
                try await blocking {
                    let client = try TestHTTPClient(port: server.port)
                    defer { client.close() }
                    for _ in 0..<3 {
                        #expect(try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#).status == 200)
                    }
                    let scrape = try client.request("GET", "/metrics")
                    let check = try Promtool.checkMetrics(scrape.body)
                    #expect(check.status == 0, "promtool check metrics: \(check.output)\n\(scrape.bodyText)")
                    let samples = Exposition(scrape.bodyText)
                    let committed = try #require(samples["statehouse_storage_transactions_total{outcome=\"committed\"}"])
                    // In `commit` mode each answered action was committed before its answer (maybe grouped).
                    #expect(committed >= 1)
                    #expect(samples["statehouse_storage_transactions_total{outcome=\"failed\"}"] == 0)
                    #expect((samples["statehouse_storage_committed_writes_total"] ?? 0) >= 3)
                    #expect(samples["statehouse_storage_transaction_duration_seconds_count"] == committed)
                    #expect((samples["statehouse_storage_file_bytes{file=\"database\"}"] ?? 0) > 0)
                }
            }
        }

        @Test func scrapingNeedsTheMetricsScopeUnderAuth() async throws {
            let configure: (inout ServerConfiguration) -> Void = { configuration in
                configuration.auth = AccessPolicy(entries: [
                    (AccessPolicy.sha256(Array(Self.scraper.utf8)), .init(stores: [], scopes: [.metrics])),
                    (AccessPolicy.sha256(Array(Self.reader.utf8)), .init(stores: ["*"], scopes: [.read, .write, .admin])),
                ])
            }
            try await TestServer.with(configure: configure) { server in
                try await blocking {
                    let client = try TestHTTPClient(port: server.port)
                    defer { client.close() }
                    #expect(try client.request("GET", "/metrics").status == 401)
                    let forbidden = try client.request("GET", "/metrics", fields: [("Authorization", "Bearer \(Self.reader)")])
                    #expect(forbidden.status == 403)
                    let scraped = try client.request("GET", "/metrics", fields: [("Authorization", "Bearer \(Self.scraper)")])
                    #expect(scraped.status == 200)
                    #expect(scraped.bodyText.contains("# TYPE statehouse_store_version gauge"))
                    // The scraper's token reads nothing else.
                    #expect(try client.request("GET", "/stores/counter", fields: [("Authorization", "Bearer \(Self.scraper)")]).status == 403)
                }
            }
        }
    }
}

/// The samples of an exposition by series (`name{labels}` as written), values as numbers.
private struct Exposition {
    private var values: [String: Double] = [:]

    init(_ text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            values[String(line[..<space])] = value
        }
    }

    subscript(series: String) -> Double? { values[series] }
}

/// `promtool check metrics` (Debian package `prometheus`), the body on its standard input.
private enum Promtool {
    static func checkMetrics(_ body: [UInt8]) throws -> (status: Int32, output: String) {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/promtool" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else {
            throw TestFailure(
                "promtool is not installed: install Debian's prometheus package (scripts/bootstrap does: "
                    + "apt-get install --no-install-recommends prometheus)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["check", "metrics"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(body))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
