import Foundation
import StatehouseServer
import StatehouseTestClients
import Testing

/// The inspector: its static files at `/inspector` (compiled into the server, public) and `GET /inspector/overview`
/// (stores with subscribers and lag, connections per loop; scope `metrics` under `auth`). The page itself is tested
/// in headless Chromium (Tests/Browser/browser_tests.py, `inspector`).
extension ServerTests {
    @Suite struct InspectorTests {
        static let scraper = "scraper-token-0123456789"
        static let reader = "reader-token-0123456789"

        static func authSetup(_ configuration: inout ServerConfiguration) {
            configuration.auth = AccessPolicy(entries: [
                (AccessPolicy.sha256(Array(scraper.utf8)), .init(stores: [], scopes: [.metrics])),
                (AccessPolicy.sha256(Array(reader.utf8)), .init(stores: ["*"], scopes: [.read, .write, .admin])),
            ])
        }

        /// The three files, byte for byte as in Sources/StatehouseServer/Inspector, with their types, tags and the
        /// page's security fields; 304 on a matching tag; HEAD; 405 and 404 around them.
        @Test func servesThePageScriptAndStyleSheet() async throws {
            let directory = packageRoot.appendingPathComponent("Sources/StatehouseServer/Inspector")
            let files: [(path: String, file: String, type: String)] = [
                ("/inspector", "inspector.html", "text/html; charset=utf-8"),
                ("/inspector/inspector.js", "inspector.js", "text/javascript; charset=utf-8"),
                ("/inspector/inspector.css", "inspector.css", "text/css; charset=utf-8"),
            ]
            try await TestServer.with { server in
                try await blocking {
                    let client = try TestHTTPClient(port: server.port)
                    defer { client.close() }
                    for (path, file, type) in files {
                        let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(file)))
                        let response = try client.request("GET", path)
                        #expect(response.status == 200, "\(path)")
                        #expect(response.field("Content-Type") == type)
                        #expect(response.field("X-Content-Type-Options") == "nosniff")
                        #expect(response.body == bytes, "\(path) serves \(file) as it is")
                        let tag = try #require(response.field("ETag"))
                        let again = try client.request("GET", path, fields: [("If-None-Match", tag)])
                        #expect(again.status == 304 && again.body.isEmpty)
                        let head = try client.request("HEAD", path)
                        #expect(head.status == 200 && head.body.isEmpty && head.field("ETag") == tag)
                        #expect(try client.request("POST", path, body: "{}").status == 405)
                    }
                    let page = try client.request("GET", "/inspector")
                    let policy = try #require(page.field("Content-Security-Policy"))
                    #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"))
                    #expect(policy.contains("frame-ancestors 'none'"))
                    #expect(page.bodyText.contains("inspector/inspector.js"))
                    #expect(try client.request("GET", "/inspector/nothing.js").status == 404)
                    #expect(try client.request("GET", "/inspector/overview/more").status == 404)
                }
            }
        }

        /// Two loops; this client, a WebSocket and an SSE stream on `counter`, a `/ws` with two subscriptions: the
        /// overview lists every store with its figures and every connection on its loop.
        @Test func overviewListsStoresSubscribersAndConnectionsPerLoop() async throws {
            try await TestServer.with(configure: { $0.eventLoops = 2 }) { server in
                try await blocking {
                    let client = try TestHTTPClient(port: server.port)
                    defer { client.close() }
                    for _ in 0..<2 {
                        #expect(try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#).status == 200)
                    }
                    let ws = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
                    defer { ws.close() }
                    #expect(try ws.receiveJSON()["version"] as? Int == 2)
                    let sse = try SSEReader(port: server.port, path: "/stores/counter/events")
                    defer { sse.close() }
                    #expect(try sse.next().event == "state")
                    let multiplexed = try TestWebSocketClient(port: server.port, path: "/ws")
                    defer { multiplexed.close() }
                    for (id, store) in [("a", "todos"), ("b", "counter")] {
                        try multiplexed.sendText(#"{"type":"subscribe","id":"\#(id)","store":"\#(store)"}"#)
                        #expect(try multiplexed.receiveJSON()["sub"] as? String == id)
                    }

                    let response = try client.request("GET", "/inspector/overview")
                    #expect(response.status == 200)
                    #expect(response.field("Content-Type") == "application/json")
                    #expect(response.field("Cache-Control") == "no-store")
                    let overview = try response.json()
                    #expect(Set(overview.keys) == ["stores", "loops"])
                    let stores = try #require(overview["stores"] as? [[String: Any]])
                    #expect(stores.compactMap { $0["name"] as? String } == ["counter", "search", "todos"])
                    let counter = try #require(stores.first { $0["name"] as? String == "counter" })
                    #expect(Set(counter.keys) == ["name", "reducer", "version", "durable", "subscribers", "slowestLagVersions", "slowestLagMs"])
                    #expect(counter["reducer"] as? String == "Counter")
                    #expect(counter["version"] as? Int == 2)
                    #expect(counter["durable"] as? Bool == false)
                    #expect(counter["subscribers"] as? [String: Int] == ["websocket": 2, "sse": 1])
                    #expect(counter["slowestLagVersions"] as? Int == 0)
                    #expect(counter["slowestLagMs"] as? Int == 0)
                    let todos = try #require(stores.first { $0["name"] as? String == "todos" })
                    #expect(todos["subscribers"] as? [String: Int] == ["websocket": 1, "sse": 0])

                    let loops = try #require(overview["loops"] as? [[String: Any]])
                    #expect(loops.compactMap { $0["loop"] as? Int } == [0, 1])
                    let connections = loops.flatMap { ($0["connections"] as? [[String: Any]]) ?? [] }
                    #expect(connections.count == 4, "this client, two WebSockets, one SSE stream: \(connections)")
                    for connection in connections {
                        #expect(Set(connection.keys) == ["id", "kind", "peer", "ageMs", "unsentBytes", "subscriptions"])
                        #expect((connection["peer"] as? String)?.hasPrefix("127.0.0.1:") == true)
                        #expect((connection["ageMs"] as? Int).map { $0 >= 0 && $0 < 60_000 } == true)
                    }
                    #expect(Set(connections.compactMap { $0["id"] as? Int }).count == 4)
                    let byKind = Dictionary(grouping: connections) { $0["kind"] as? String ?? "?" }
                    #expect(byKind["http"]?.count == 1 && byKind["sse"]?.count == 1 && byKind["websocket"]?.count == 2)
                    #expect(byKind["http"]?.first?["subscriptions"] as? [String] == [])
                    #expect(byKind["sse"]?.first?["subscriptions"] as? [String] == ["counter"])
                    let streamed = Set(byKind["websocket"]?.compactMap { $0["subscriptions"] as? [String] } ?? [])
                    #expect(streamed == [["counter"], ["counter", "todos"]])

                    let head = try client.request("HEAD", "/inspector/overview")
                    #expect(head.status == 200 && head.body.isEmpty)
                    #expect(try client.request("DELETE", "/inspector/overview").status == 405)
                }
            }
        }

        /// An SSE subscriber that stops reading falls behind: its store's `slowestLagVersions` says by how many
        /// versions, as `/metrics` does.
        @Test func overviewShowsTheLagOfASubscriberThatStoppedReading() async throws {
            let streams = ServerConfiguration.Streams(writeHighWaterBytes: 16_384)
            try await TestServer.with(streams: streams) { server in
                try await blocking {
                    let silent = try TestSocket(port: server.port, receiveBufferBytes: 16_384)
                    defer { silent.close() }
                    try silent.send("GET /stores/counter/events HTTP/1.1\r\nHost: x\r\n\r\n")
                    #expect(try WriteBackpressureTests.changeUntilStuckBehind(server) < 100)
                    let client = try TestHTTPClient(port: server.port)
                    defer { client.close() }
                    let stores = try #require(try client.request("GET", "/inspector/overview").json()["stores"] as? [[String: Any]])
                    let counter = try #require(stores.first { $0["name"] as? String == "counter" })
                    let version = try #require(counter["version"] as? Int)
                    let lag = try #require(counter["slowestLagVersions"] as? Int)
                    #expect(lag > 0 && lag <= version, "lag \(lag) of version \(version)")
                    #expect(counter["subscribers"] as? [String: Int] == ["websocket": 0, "sse": 1])
                    let metrics = try client.request("GET", "/metrics").bodyText
                    let series = #"statehouse_store_slowest_subscriber_lag_versions{store="counter",reducer="Counter"} "#
                    let line = metrics.split(separator: "\n").first { $0.hasPrefix(series) }
                    #expect(line.flatMap { Int($0.dropFirst(series.count)) } == lag, "the same lag as /metrics")
                }
            }
        }

        /// Under `auth`: the page is public (no data), the overview needs the `metrics` scope.
        @Test func overviewNeedsTheMetricsScopeThePageIsPublic() async throws {
            try await TestServer.with(configure: Self.authSetup) { server in
                try await blocking {
                    let client = try TestHTTPClient(port: server.port)
                    defer { client.close() }
                    #expect(try client.request("GET", "/inspector").status == 200)
                    #expect(try client.request("GET", "/inspector/inspector.js").status == 200)
                    let missing = try client.request("GET", "/inspector/overview")
                    #expect(missing.status == 401)
                    #expect((try missing.json()["error"] as? [String: Any])?["code"] as? String == "unauthorized")
                    let forbidden = try client.request("GET", "/inspector/overview", fields: [("Authorization", "Bearer \(Self.reader)")])
                    #expect(forbidden.status == 403)
                    #expect((try forbidden.json()["error"] as? [String: Any])?["code"] as? String == "forbidden")
                    let allowed = try client.request("GET", "/inspector/overview", fields: [("Authorization", "Bearer \(Self.scraper)")])
                    #expect(allowed.status == 200)
                    #expect((try allowed.json()["stores"] as? [Any])?.count == 3)
                    let query = try client.request("GET", "/inspector/overview?access_token=\(Self.scraper)")
                    #expect(query.status == 200)
                }
            }
        }
    }
}
