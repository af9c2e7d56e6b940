import DemoReducers
import Foundation
import StatehouseServer
import StatehouseTestClients

/// A real server on 127.0.0.1 with an ephemeral port, hosting the demo stores, for one test.
final class TestServer: @unchecked Sendable {
    let server: Server
    let port: UInt16
    /// The server's log file (see ``TestLogs``).
    let logPath: String

    init(
        limits: ServerConfiguration.Limits = .init(), streams: ServerConfiguration.Streams = .init(),
        timeouts: ServerConfiguration.Timeouts = .init(), stores: [ServerConfiguration.StoreDeclaration]? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws {
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, limits: limits, streams: streams, timeouts: timeouts,
            stores: stores ?? [
                .init(name: "counter", reducer: "Counter"), .init(name: "todos", reducer: "TodoList"),
                .init(name: "search", reducer: "Search"),
            ])
        configure(&configuration)
        let (logger, path) = TestLogs.logger()
        logPath = path
        server = try Server(configuration: configuration, catalog: ReducerCatalog.demo, logger: logger)
        port = UInt16(try server.start())
    }

    func stop() { server.shutdown() }

    /// Runs `body` with a fresh server configured by `configure`, and always shuts it down.
    static func with<T>(
        configure: (inout ServerConfiguration) -> Void, _ body: (TestServer) async throws -> T
    ) async throws -> T {
        let server = try TestServer(configure: configure)
        defer { server.stop() }
        return try await TestLogs.printingLog(server.logPath) { try await body(server) }
    }

    /// Runs `body` with a fresh server and always shuts it down.
    static func with<T>(
        limits: ServerConfiguration.Limits = .init(), streams: ServerConfiguration.Streams = .init(),
        timeouts: ServerConfiguration.Timeouts = .init(), _ body: (TestServer) async throws -> T
    ) async throws -> T {
        let server = try TestServer(limits: limits, streams: streams, timeouts: timeouts)
        defer { server.stop() }
        return try await TestLogs.printingLog(server.logPath) { try await body(server) }
    }
}

/// The package root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Parses JSON text into a dictionary (tests only).
func jsonObject(_ text: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
        throw TestFailure("not a JSON object: \(text)")
    }
    return object
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Sends the same keyed POST from `count` connections at once (each on a thread of its own); returns the bodies.
func concurrentKeyedPosts(port: UInt16, count: Int, path: String, body: String, key: String) async throws -> [String] {
    try await withThrowingTaskGroup(of: String.self) { group in
        for _ in 0..<count {
            group.addTask {
                try await blocking {
                    let client = try TestHTTPClient(port: port)
                    defer { client.close() }
                    return try client.request("POST", path, body: body, fields: [("Idempotency-Key", key)]).bodyText
                }
            }
        }
        return try await group.reduce(into: []) { $0.append($1) }
    }
}

/// Stream settings that make slow-consumer behaviour show quickly in tests.
enum ServerConfigurationStreams {
    static let small = ServerConfiguration.Streams(historySize: 64, writeHighWaterBytes: 16_384, maxLagSeconds: 60)
}

extension ReducerCatalog {
    /// The demo reducers, each registered with its concrete type, as `statehouse` registers them.
    static var demo: ReducerCatalog {
        ReducerCatalog().registering(Counter.self).registering(TodoList.self).registering(Search.self).registering(Ticker.self)
    }
}
