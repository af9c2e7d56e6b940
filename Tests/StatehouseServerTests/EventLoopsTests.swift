import DemoReducers
import Foundation
import StatehouseTestClients
import Testing
import UVLoop

@testable import StatehouseServer

extension ServerTests {
    /// Several event loops (`listen.eventLoops`): connections land on all of them, and stores, streams, version waits
    /// and idempotency keys behave as with one.
    @Suite struct EventLoopsTests {
        static func twoLoops(_ configuration: inout ServerConfiguration) { configuration.eventLoops = 2 }

        /// 16 watchers spread over two loops all see every version of writes made from connections on both loops,
        /// with the store on a loop or on the pool.
        @Test(arguments: [StoreExecutorChoice.loop, .pool])
        func watchersOnEveryLoopSeeEveryVersion(storeExecutor: StoreExecutorChoice) async throws {
            try await TestServer.with(configure: { configuration in
                configuration.eventLoops = 2
                configuration.storeExecutor = storeExecutor
            }) { server in
                let port = server.port
                let watchers = try (0..<16).map { _ in try TestWebSocketClient(port: port, path: "/stores/counter/ws") }
                defer { watchers.forEach { $0.close() } }
                for watcher in watchers { #expect(try watcher.receiveJSON(timeout: .seconds(5))["version"] as? Int == 0) }
                let perLoop = server.server.openConnectionsPerLoop()
                #expect(perLoop.count == 2)
                // The kernel hashes each connection's address pair: all 16 on one loop has odds of 2 in 65,536.
                #expect(perLoop.allSatisfy { $0 > 0 }, "connections per loop: \(perLoop)")

                let writers = 4, actionsPerWriter = 25
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<writers {
                        group.addTask {
                            try await blocking {
                                let client = try TestHTTPClient(port: port)
                                defer { client.close() }
                                for _ in 0..<actionsPerWriter {
                                    let response = try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#)
                                    guard response.status == 200 else { throw TestFailure("status \(response.status)") }
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                let total = writers * actionsPerWriter
                for watcher in watchers {
                    var versions: [Int] = []
                    while versions.last != total {
                        versions.append(try #require(try watcher.receiveJSON(timeout: .seconds(10))["version"] as? Int))
                    }
                    #expect(versions == Array(1...total))
                }
            }
        }

        /// The loops share their address with each other only: a second server on the same port (also with two
        /// loops, so also using SO_REUSEPORT) cannot start, it gets EADDRINUSE (the CLI exits 1).
        @Test func aSecondServerCannotJoinTheAddress() async throws {
            try await TestServer.with(configure: Self.twoLoops) { server in
                var configuration = ServerConfiguration(host: "127.0.0.1", port: Int(server.port), stores: [])
                configuration.eventLoops = 2
                let second = try Server(configuration: configuration, catalog: ReducerCatalog.demo, logger: TestLogs.logger().logger)
                do {
                    try second.start()
                    second.shutdown()
                    Issue.record("a second server started on port \(server.port)")
                } catch let error as UVError {
                    #expect(error.name == "EADDRINUSE")
                }
            }
        }

        /// A read waiting for `min_version` is answered when a connection (on whichever loop) makes that version.
        @Test func versionWaitsAreWokenByWritesFromOtherConnections() async throws {
            try await TestServer.with(configure: Self.twoLoops) { server in
                let port = server.port
                let responses = try await blocking { () -> [Int] in
                    let readers = try (0..<6).map { _ in try TestHTTPClient(port: port) }
                    defer { readers.forEach { $0.close() } }
                    for reader in readers {
                        try reader.sendRaw("GET /stores/counter?min_version=3&timeout_ms=20000 HTTP/1.1\r\nHost: x\r\n\r\n")
                    }
                    let writer = try TestHTTPClient(port: port)
                    defer { writer.close() }
                    for _ in 0..<3 { _ = try writer.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#) }
                    return try readers.map { reader in
                        let response = try reader.readResponse(deadline: .now + .seconds(10))
                        return try #require(try jsonObject(response.bodyText)["version"] as? Int)
                    }
                }
                #expect(responses == Array(repeating: 3, count: 6))
            }
        }

        /// One idempotency key sent at once from many connections (so from both loops) is reduced once, and every
        /// sender gets the same answer.
        @Test func anIdempotencyKeyIsReducedOnceAcrossLoops() async throws {
            try await TestServer.with(configure: Self.twoLoops) { server in
                let port = server.port
                let bodies = try await concurrentKeyedPosts(
                    port: port, count: 8, path: "/stores/counter/actions", body: #"{"type":"add","payload":{"amount":7}}"#,
                    key: "once")
                #expect(Set(bodies) == [#"{"store":"counter","version":1,"state":{"count":7}}"#])
                let read = try await blocking { try TestHTTPClient(port: port).request("GET", "/stores/counter").bodyText }
                #expect(read == #"{"store":"counter","version":1,"state":{"count":7}}"#)
            }
        }
    }
}
