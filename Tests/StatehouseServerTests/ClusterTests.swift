import DemoReducers
import Foundation
import Redis
import StatehouseServer
import StatehouseTestClients
import Testing

extension ServerTests {
    /// Cluster nodes in one process over a real `redis-server` the test starts (on a unix socket) and stops:
    /// forwarding, idempotency across nodes, the followers' views, draining, Redis restarting. The SIGKILL failover
    /// test with 3 node processes is `make cluster-test` (Tests/Cluster/cluster_test.py).
    @Suite(.serialized) struct ClusterTests {
        static let stores: [ServerConfiguration.StoreDeclaration] = [
            .init(name: "a", reducer: "Counter"), .init(name: "b", reducer: "Counter"), .init(name: "t", reducer: "TodoList"),
            .init(name: "s", reducer: "Search"),
        ]

        /// A node of the cluster on `redis`.
        static func node(_ name: String, _ redis: RedisTestServer, leaseMs: Int = 2_000) throws -> TestServer {
            try TestServer(stores: stores) { configuration in
                var cluster = ClusterConfiguration(redis: redis.unixURL, node: name)
                cluster.leaseMs = leaseMs
                configuration.cluster = cluster
            }
        }

        static func post(_ port: UInt16, _ store: String, key: String? = nil, body: String = #"{"type":"increment"}"#)
            throws -> TestHTTPResponse
        {
            let client = try TestHTTPClient(port: port)
            defer { client.close() }
            return try client.request(
                "POST", "/stores/\(store)/actions", body: body, fields: key.map { [("Idempotency-Key", $0)] } ?? [])
        }

        static func get(_ port: UInt16, _ path: String) throws -> TestHTTPResponse {
            let client = try TestHTTPClient(port: port)
            defer { client.close() }
            return try client.request("GET", path)
        }

        /// Polls `GET /stores/{store}` on `port` until its version is `version` (10 s deadline); returns the body.
        static func awaitVersion(_ port: UInt16, _ store: String, _ version: Int) throws -> [String: Any] {
            let deadline = ContinuousClock.now + .seconds(10)
            while true {
                let body = try get(port, "/stores/\(store)").json()
                if body["version"] as? Int == version { return body }
                guard ContinuousClock.now < deadline else {
                    throw TestFailure("store \(store) on port \(port) stayed at \(body["version"] ?? "?"), not \(version)")
                }
                Thread.sleep(forTimeInterval: 0.01)  // polling with a deadline, not synchronisation
            }
        }

        /// The stream of a store as (version, token, key) triples.
        static func log(_ redis: RedisTestServer, _ store: String) throws -> [(version: Int, token: Int, key: String?)] {
            let connection = try RedisConnection(try RedisEndpoint(url: redis.unixURL))
            defer { connection.close() }
            let reply = try connection.command("XRANGE", "{s:\(store)}:log", "-", "+")
            return (reply.array ?? []).compactMap { entry in
                guard let parts = entry.array, let id = parts[0].string, let fields = parts[1].array else { return nil }
                var values: [String: String] = [:]
                for index in stride(from: 0, to: fields.count - 1, by: 2) {
                    values[fields[index].string ?? ""] = fields[index + 1].string
                }
                return (Int(id.prefix { $0 != "-" }) ?? -1, Int(values["t"] ?? "") ?? -1, values["k"])
            }
        }

        static func lease(_ redis: RedisTestServer, _ store: String) throws -> String? {
            let connection = try RedisConnection(try RedisEndpoint(url: redis.unixURL))
            defer { connection.close() }
            return try connection.command("GET", "{s:\(store)}:lease").string
        }

        @Test func anyNodeTakesActionsTheOwnerAppliesOnceAndEveryNodeSeesThem() async throws {
            let redis = try RedisTestServer.start()
            defer { redis.stop() }
            let nodes = try ["n1", "n2", "n3"].map { try Self.node($0, redis) }
            defer { for node in nodes { node.stop() } }
            // The first action takes the lease for the node it reached.
            #expect(try Self.post(nodes[0].port, "a", key: "k0").status == 200)
            #expect(try Self.lease(redis, "a")?.hasPrefix("n1:") == true)
            for index in 1...6 {
                let response = try Self.post(nodes[index % 3].port, "a", key: "k\(index)")
                #expect(response.status == 200, "\(response)")
                #expect(try response.json()["version"] as? Int == index + 1)
            }
            // A retry through another node is answered with the first outcome, not applied again.
            let retry = try Self.post(nodes[2].port, "a", key: "k1")
            #expect(retry.status == 200)
            #expect(try retry.json()["version"] as? Int == 2)
            // A key reused for another action is refused by the owner, whichever node it reached.
            #expect(try Self.post(nodes[1].port, "a", key: "k2", body: #"{"type":"decrement"}"#).status == 422)
            var epochs: Set<String> = []
            for node in nodes {
                let body = try Self.awaitVersion(node.port, "a", 7)
                #expect((body["state"] as? [String: Any])?["count"] as? Int == 7)
                let tag = try Self.get(node.port, "/stores/a").field("ETag") ?? ""
                epochs.insert(String(tag.dropFirst().prefix { $0 != "-" }))
            }
            #expect(epochs.count == 1, "every node gives the store's one epoch: \(epochs)")
            let log = try Self.log(redis, "a")
            #expect(log.map(\.version) == Array(1...7))
            #expect(log.map(\.key) == (0...6).map { "k\($0)" })
            #expect(Set(log.map(\.token)).count == 1)
            // Metrics say which node owns the store.
            let metrics = try Self.get(nodes[0].port, "/metrics").bodyText
            #expect(metrics.contains(#"statehouse_store_owned{store="a",reducer="Counter",node="n1"} 1"#))
            #expect(try Self.get(nodes[1].port, "/metrics").bodyText.contains(#"statehouse_store_owned{store="a",reducer="Counter",node="n2"} 0"#))
        }

        @Test func aDrainingNodeHandsItsStoresOverWithAHigherFencingToken() async throws {
            let redis = try RedisTestServer.start()
            defer { redis.stop() }
            let first = try Self.node("n1", redis)
            let second = try Self.node("n2", redis)
            defer { second.stop() }
            for index in 0..<3 { #expect(try Self.post(first.port, "b", key: "d\(index)").status == 200) }
            let before = try #require(try Self.lease(redis, "b"))
            first.stop()  // drains: releases the lease
            #expect(try Self.lease(redis, "b") == nil)
            let response = try Self.post(second.port, "b", key: "d3")
            #expect(response.status == 200, "\(response)")
            #expect(try response.json()["version"] as? Int == 4)
            let after = try #require(try Self.lease(redis, "b"))
            #expect(after.hasPrefix("n2:"))
            #expect(Int(after.split(separator: ":").last!)! > Int(before.split(separator: ":").last!)!)
            let tokens = try Self.log(redis, "b").map(\.token)
            #expect(tokens == tokens.sorted() && tokens.count == 4)
            // A retry of a key the first owner committed is answered by the second, not applied again.
            let retry = try Self.post(second.port, "b", key: "d1")
            #expect(try retry.json()["version"] as? Int == 2)
            #expect(try Self.get(second.port, "/stores/b").json()["version"] as? Int == 4)
        }

        @Test func redisRestartingFromItsAppendOnlyFileLosesNoAcknowledgedAction() async throws {
            let redis = try RedisTestServer.start(appendOnly: true)
            defer { redis.stop() }
            let owner = try Self.node("n1", redis)
            let follower = try Self.node("n2", redis)
            defer { owner.stop(); follower.stop() }
            for index in 0..<5 { #expect(try Self.post(owner.port, "a", key: "r\(index)").status == 200) }
            redis.kill()
            // While Redis is down an action is refused (503), not lost nor half applied.
            let refused = try Self.post(follower.port, "a", key: "r5")
            #expect(refused.status == 503, "\(refused)")
            try redis.restart()
            // Retried with its key until Redis answers again; then applied once.
            let deadline = ContinuousClock.now + .seconds(15)
            var response = try Self.post(follower.port, "a", key: "r5")
            while response.status != 200, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))  // a client's retry pace
                response = try Self.post(follower.port, "a", key: "r5")
            }
            #expect(response.status == 200, "\(response)")
            #expect(try response.json()["version"] as? Int == 6)
            _ = try Self.awaitVersion(owner.port, "a", 6)
            _ = try Self.awaitVersion(follower.port, "a", 6)
            #expect(try Self.log(redis, "a").map(\.version) == Array(1...6))
        }

        @Test func aKeyRedisHoldsIsAnsweredNotAppliedAgainEvenWhenTheOwnerDidNotKnowIt() async throws {
            let redis = try RedisTestServer.start()
            defer { redis.stop() }
            let node = try Self.node("n1", redis)
            defer { node.stop() }
            #expect(try Self.post(node.port, "a", key: "first").status == 200)
            // An earlier owner's commit of key "ghost" at version 1, which this node never read (as when it read the
            // keys just before that commit).
            let connection = try RedisConnection(try RedisEndpoint(url: redis.unixURL))
            defer { connection.close() }
            let expires = String(Int64(Date().timeIntervalSince1970 * 1_000) + 600_000)
            // The same action as "first", so the same fingerprint (the part before the first colon).
            let fingerprint = try #require(try connection.command("HGET", "{s:a}:keys", "first").string?.split(separator: ":").first)
            _ = try connection.command("HSET", "{s:a}:keys", "ghost", "\(fingerprint):1:\(expires):{\"count\":1}")
            _ = try connection.command("ZADD", "{s:a}:keyexp", expires, "ghost")
            // The commit function refuses the batch (nothing written), so the action is not applied ...
            let refused = try Self.post(node.port, "a", key: "ghost")
            #expect(refused.status == 503, "\(refused)")
            #expect(refused.bodyText.contains("was not applied"), "\(refused)")
            // ... and the node reads the keys again: the retry gets the stored outcome.
            let deadline = ContinuousClock.now + .seconds(10)
            var retry = try Self.post(node.port, "a", key: "ghost")
            while retry.status != 200, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))  // a client's retry pace
                retry = try Self.post(node.port, "a", key: "ghost")
            }
            #expect(try retry.json()["version"] as? Int == 1)
            #expect(try Self.get(node.port, "/stores/a").json()["version"] as? Int == 1)
            #expect(try Self.log(redis, "a").map(\.key) == ["first"])
        }

        @Test func subscribersOfAFollowerGetTheOwnersStatesAndEventsInStreamOrder() async throws {
            let redis = try RedisTestServer.start()
            defer { redis.stop() }
            let owner = try Self.node("n1", redis)
            let follower = try Self.node("n2", redis)
            defer { owner.stop(); follower.stop() }
            let ws = try TestWebSocketClient(port: follower.port, path: "/stores/s/ws")
            defer { ws.close() }
            #expect(try ws.receiveJSON(timeout: .seconds(5))["version"] as? Int == 0)
            // An event without a state change, then a debounced search: its states, then its event.
            #expect(try Self.post(owner.port, "s", body: #"{"type":"select","payload":"kiwi"}"#).status == 200)
            let selected = try ws.receiveJSON(timeout: .seconds(5))
            #expect(selected["type"] as? String == "event")
            #expect((selected["event"] as? [String: Any])?["payload"] as? String == "kiwi")
            #expect(try Self.post(owner.port, "s", body: #"{"type":"query","payload":"zz"}"#).status == 200)
            #expect(try ws.receiveJSON(timeout: .seconds(5))["version"] as? Int == 1)
            let results = try ws.receiveJSON(timeout: .seconds(5))
            #expect(results["version"] as? Int == 2)
            let noResults = try ws.receiveJSON(timeout: .seconds(5))
            #expect((noResults["event"] as? [String: Any])?["type"] as? String == "noResults")
        }

        @Test func aClusterServesItsConfiguredStoresOnly() async throws {
            let redis = try RedisTestServer.start()
            defer { redis.stop() }
            let node = try Self.node("n1", redis)
            defer { node.stop() }
            let client = try TestHTTPClient(port: node.port)
            defer { client.close() }
            let put = try client.request("PUT", "/stores/new", body: #"{"reducer":"Counter"}"#)
            #expect(put.status == 409)
            #expect(put.bodyText.contains("stores_fixed_in_cluster"))
            #expect(try client.request("DELETE", "/stores/a").status == 409)
        }

        @Test func aNodeWithoutRedisOrWithAnotherReducerDoesNotStart() async throws {
            var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, stores: Self.stores)
            configuration.cluster = ClusterConfiguration(redis: "unix:///nonexistent/redis.sock", node: "n1")
            #expect(throws: ConfigurationError.self) {
                _ = try Server(configuration: configuration, catalog: ReducerCatalog.demo, logger: TestLogs.logger().logger)
            }
            let redis = try RedisTestServer.start()
            defer { redis.stop() }
            let node = try Self.node("n1", redis)
            // A second node of the same name is refused (both would read one inbox).
            do {
                let twin = try Self.node("n1", redis)
                twin.stop()
                Issue.record("a second node named n1 started")
            } catch {
                #expect("\(error)".contains("running already"), "\(error)")
            }
            node.stop()
            configuration.cluster = ClusterConfiguration(redis: redis.unixURL, node: "n2")
            configuration.stores = [.init(name: "a", reducer: "TodoList")]
            do {
                _ = try Server(configuration: configuration, catalog: ReducerCatalog.demo, logger: TestLogs.logger().logger)
                Issue.record("a node started with a store Redis holds for another reducer")
            } catch {
                #expect("\(error)".contains("Counter"), "\(error)")
            }
        }

        @Test func configurationReadsTheRedisStorage() throws {
            let text = #"{"storage":{"redis":"redis://127.0.0.1:6390","node":"n7","leaseMs":1000},"stores":[]}"#
            let configuration = try ConfigurationLoader.parse(Array(text.utf8), path: "c.json")
            #expect(configuration.cluster?.redis == "redis://127.0.0.1:6390")
            #expect(configuration.cluster?.node == "n7")
            #expect(configuration.cluster?.leaseMs == 1000)
            #expect(configuration.storage == nil)
            for (bad, problem) in [
                (#"{"storage":{"redis":"redis://127.0.0.1:6390/2"}}"#, "database 0"),
                (#"{"storage":{"redis":"http://x"},"stores":[]}"#, "not a Redis URL"),
                (#"{"storage":{"redis":"redis://h","path":"x.sqlite"}}"#, "keep one"),
                (#"{"storage":{"redis":"redis://h","node":"a b"}}"#, "node name"),
                (#"{"storage":{"redis":"redis://h","leaseMs":10}}"#, "leaseMs"),
            ] {
                #expect(throws: ConfigurationError.self) { _ = try ConfigurationLoader.parse(Array(bad.utf8), path: "c.json") }
                do { _ = try ConfigurationLoader.parse(Array(bad.utf8), path: "c.json") } catch {
                    #expect("\(error)".contains(problem), "\(error)")
                }
            }
        }
    }
}
