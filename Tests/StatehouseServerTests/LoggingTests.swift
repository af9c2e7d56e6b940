import DemoReducers
import Foundation
import Statehouse
import StatehouseServer
import StatehouseTestClients
import Testing

/// A reducer whose events cannot be sent: its `Event` is a struct, not an enum (an event is sent as an FSA named by
/// its case); `stray` emits a value that is not an `Event` at all.
struct Pinger: ServableReducer {
    struct State: Codable, Equatable, Sendable { var pings = 0 }
    enum Action: Codable, Sendable { case ping, stray }
    struct Event: Encodable, Sendable { var count: Int }
    static let initialState = State()

    init() {}

    func reduce(state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .ping:
            state.pings += 1
            return .emit(Event(count: state.pings))
        case .stray:
            return .emit("not an Event")
        }
    }
}

extension ServerTests {
    /// The injected logger: real servers on port 0 logging to an ``InMemoryLogHandler``, real clients; each test
    /// looks for the records its requests cause, with their metadata.
    @Suite struct LoggingTests {
        /// Runs `body` with a server hosting `counter` (Counter) and `pinger` (Pinger) that logs to `handler` at
        /// `level`; always shuts it down.
        static func withServer<T>(
            _ handler: InMemoryLogHandler, level: Logger.Level = .debug, limits: ServerConfiguration.Limits = .init(),
            _ body: (UInt16) async throws -> T
        ) async throws -> T {
            var catalog = ReducerCatalog.demo
            catalog.register(Pinger.self)
            let configuration = ServerConfiguration(
                host: "127.0.0.1", port: 0, limits: limits,
                stores: [.init(name: "counter", reducer: "Counter"), .init(name: "pinger", reducer: "Pinger")])
            let server = try Server(configuration: configuration, catalog: catalog, logger: Logger(level: level, handler: handler))
            let port = UInt16(try server.start())
            defer { server.shutdown() }
            return try await body(port)
        }

        @Test func startAndShutdownLinesGoToTheInjectedLogger() async throws {
            let handler = InMemoryLogHandler()
            try await Self.withServer(handler, level: .info) { port in
                let start = try #require(handler.first { $0.message.hasPrefix("serving 2 store(s) [counter, pinger]") })
                #expect(start.level == .info)
                #expect(start.message.contains("127.0.0.1:\(port)"))
                #expect(start.metadata.isEmpty)
                // Below the level nothing is kept: a request's debug line is not written at info.
                let client = try TestHTTPClient(port: port)
                defer { client.close() }
                #expect(try client.request("GET", "/stores/counter").status == 200)
                #expect(handler.records.allSatisfy { $0.level >= .info })
            }
            #expect(handler.first { $0.message.hasPrefix("shutting down") }?.level == .info)
        }

        @Test func requestLinesCarryTheirConnectionNumber() async throws {
            let handler = InMemoryLogHandler()
            try await Self.withServer(handler) { port in
                let first = try TestHTTPClient(port: port)
                defer { first.close() }
                let second = try TestHTTPClient(port: port)
                defer { second.close() }
                #expect(try first.request("GET", "/stores/counter").status == 200)
                #expect(try first.request("GET", "/stores/nope").status == 404)
                #expect(try second.request("GET", "/stores/counter").status == 200)
                let found = try #require(await handler.waitForRecord { $0.message == "http GET /stores/nope → 404" })
                #expect(found.level == .debug)
                let requests = handler.records.filter { $0.message.hasPrefix("http GET /stores/") }
                #expect(requests.count == 3)
                let connections = requests.map { $0.metadata["conn"] }
                #expect(connections.allSatisfy { $0.flatMap(UInt64.init) != nil }, "\(requests)")
                #expect(connections[0] == connections[1], "one connection, one number")
                #expect(connections[0] != connections[2], "two connections, two numbers")
            }
        }

        @Test func aStoreWhoseEventCannotBeSentWarnsWithItsName() async throws {
            let handler = InMemoryLogHandler()
            try await Self.withServer(handler) { port in
                let client = try TestHTTPClient(port: port)
                defer { client.close() }
                #expect(try client.request("POST", "/stores/pinger/actions", body: #"{"type":"ping"}"#).status == 200)
                let warning = try #require(await handler.waitForRecord { $0.message.contains("is not an enum case") })
                #expect(warning.level == .warning)
                #expect(warning.metadata["store"] == "pinger")
                #expect(warning.message == "store pinger: an event of type Event is not an enum case; not sent")

                // An effect's event of another type is dropped by the store itself: the same metadata.
                #expect(try client.request("POST", "/stores/pinger/actions", body: #"{"type":"stray"}"#).status == 200)
                let dropped = try #require(await handler.waitForRecord { $0.message.contains("dropped event of type String") })
                #expect(dropped.level == .warning)
                #expect(dropped.metadata == ["store": "pinger"])
            }
        }

        @Test func aRefusedConnectionIsLoggedOnce() async throws {
            let handler = InMemoryLogHandler()
            try await Self.withServer(handler, limits: .init(maxConnections: 1)) { port in
                let admitted = try TestHTTPClient(port: port)
                defer { admitted.close() }
                #expect(try admitted.request("GET", "/healthz").status == 200)
                let refused = try TestHTTPClient(port: port)
                defer { refused.close() }
                #expect(try refused.readResponse(deadline: .now + .seconds(5)).status == 503)
                let line = try #require(await handler.waitForRecord { $0.message.hasPrefix("refused") })
                #expect(line.level == .warning)
                #expect(line.message.hasPrefix("refused 1 connection(s) with 503 too_many_connections"))
                #expect(line.metadata.isEmpty, "a refused connection never gets a number")
            }
        }

        @Test func aWebSocketThatFailsIsLoggedWithItsStoreAndConnection() async throws {
            let handler = InMemoryLogHandler()
            try await Self.withServer(handler) { port in
                let ws = try TestWebSocketClient(port: port, path: "/stores/counter/ws")
                defer { ws.close() }
                _ = try ws.receiveJSON(timeout: .seconds(5))
                try ws.sendFrame(opcode: 0x1, payload: Array(#"{"type":"increment"}"#.utf8), masked: false)  // §5.1
                #expect(try ws.receiveClose(timeout: .seconds(5)) == 1002)
                let failed = try #require(await handler.waitForRecord { $0.message.hasPrefix("ws counter failed: close 1002") })
                #expect(failed.level == .info)
                #expect(failed.metadata["store"] == "counter")
                let opened = try #require(handler.first { $0.message == "ws counter opened" })
                #expect(opened.metadata["conn"] != nil)
                #expect(opened.metadata["conn"] == failed.metadata["conn"], "the upgraded connection keeps its number")
                #expect(opened.metadata["store"] == failed.metadata["store"])
                #expect(opened.metadata["request_id"] != nil, "the upgrade request's line carries its id")
            }
        }
    }
}
