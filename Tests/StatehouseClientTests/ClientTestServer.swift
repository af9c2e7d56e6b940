import DemoReducers
import Foundation
import Locking
import StatehouseClient
import StatehouseServer
import StatehouseTestClients
import Testing
import UVLoop

/// A real server on 127.0.0.1 with an ephemeral port, hosting the demo stores, for one test (trimmed from
/// StatehouseServerTests' TestServer).
final class ClientTestServer: @unchecked Sendable {
    let server: Server
    let port: Int

    private init(server: Server, port: Int) {
        self.server = server
        self.port = port
    }

    /// Starts a server on a thread of its own: `Server.start()` blocks until the stores have started, and they run on
    /// Swift's cooperative pool, which a blocked pool thread (of 2 on this machine) could starve.
    static func start(configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> ClientTestServer {
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0,
            stores: [.init(name: "counter", reducer: "Counter"), .init(name: "todos", reducer: "TodoList")])
        configure(&configuration)
        let server = try Server(configuration: configuration, catalog: ReducerCatalog.demo, logger: testLogger())
        let port = try await blocking { try server.start() }
        return ClientTestServer(server: server, port: port)
    }

    var endpoint: ServerEndpoint { ServerEndpoint(host: "127.0.0.1", port: port) }

    /// Shuts the server down from a thread of its own (it blocks until its loops end; never on the pool).
    func stop() async {
        try? await blocking { [server] in server.shutdown() }
    }

    /// Runs `body` with a fresh server configured by `configure`, and always shuts it down.
    static func with<T>(
        configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (ClientTestServer) async throws -> T
    ) async throws -> T {
        let server = try await ClientTestServer.start(configure: configure)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}

extension ReducerCatalog {
    /// The demo reducers, each registered with its concrete type, as `statehouse` registers them.
    static var demo: ReducerCatalog {
        ReducerCatalog().registering(Counter.self).registering(TodoList.self).registering(Search.self).registering(Ticker.self)
    }
}

/// A started event loop for the client side of one test, stopped by `stop()`.
final class ClientLoop: @unchecked Sendable {
    let loop: EventLoop

    init() throws {
        loop = try EventLoop()
        loop.start()
    }

    func stop() { loop.stop() }

    /// Makes a client on the loop, records what it reports in a `ClientProbe`, and starts it.
    func client(
        endpoint: ServerEndpoint, path: String = "/ws", fields: [(name: String, value: String)] = [],
        configuration: WebSocketClient.Configuration = .init()
    ) throws -> (WebSocketClient, ClientProbe) {
        let probe = ClientProbe()
        let client = try loop.submitAndWait { [loop] in
            let client = WebSocketClient(
                loop: loop, endpoint: endpoint, path: path, requestFields: fields, configuration: configuration)
            client.onOpen = { probe.record(.opened) }
            client.onText = { probe.record(.text(String(decoding: $0, as: UTF8.self))) }
            client.onEnd = { probe.record(.ended($0)) }
            client.start()
            return client
        }
        return (client, probe)
    }

    /// Runs `body` with the client on the loop thread.
    func on(_ client: WebSocketClient, _ body: @escaping @Sendable (WebSocketClient) -> Void) {
        loop.execute { body(client) }
    }
}

/// What a client reported, in order (thread-safe; the loop writes, the test reads).
final class ClientProbe: Sendable {
    enum Event: Equatable, Sendable {
        case opened
        case text(String)
        case ended(WebSocketClient.Ending)
    }

    private let events = Locked<[Event]>([])

    func record(_ event: Event) { events.withLock { $0.append(event) } }

    var snapshot: [Event] { events.withLock { $0 } }

    var texts: [String] {
        snapshot.compactMap { if case .text(let text) = $0 { text } else { nil } }
    }

    var ending: WebSocketClient.Ending? {
        snapshot.lazy.compactMap { if case .ended(let ending) = $0 { ending } else { nil } }.first
    }

    /// Polls every 5 ms until `condition` holds or `timeout` has passed; returns whether it held.
    @discardableResult
    func wait(within timeout: Duration = .seconds(5), until condition: ([Event]) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition(snapshot), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))  // polling with a deadline, not synchronising by sleep
        }
        return condition(snapshot)
    }

    /// Waits for the `count`-th text message and returns it parsed as a JSON object.
    func json(_ index: Int, within timeout: Duration = .seconds(5)) async throws -> [String: Any] {
        try await wait(within: timeout) { events in events.filter { if case .text = $0 { true } else { false } }.count > index }
        let texts = self.texts
        guard index < texts.count else { throw ProbeFailure("no message #\(index) within \(timeout): \(snapshot)") }
        guard let object = try JSONSerialization.jsonObject(with: Data(texts[index].utf8)) as? [String: Any] else {
            throw ProbeFailure("not a JSON object: \(texts[index])")
        }
        return object
    }

    /// Waits for the ending.
    func ended(within timeout: Duration = .seconds(5)) async throws -> WebSocketClient.Ending {
        try await wait(within: timeout) { _ in ending != nil }
        guard let ending else { throw ProbeFailure("no ending within \(timeout): \(snapshot)") }
        return ending
    }
}

struct ProbeFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A logger writing to a file of its own under `.build/test-logs/` (named after the running test), so `make test`
/// prints no server log; standard error when the file cannot be made.
private func testLogger() -> Logger {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/test-logs")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let name = (Test.current.map { "\($0.id)" } ?? "unnamed")
        .map { $0.isLetter || $0.isNumber || "._-()".contains($0) ? $0 : "_" }
    let path = directory.appendingPathComponent("\(String(name.suffix(150)))-\(UInt32.random(in: 0...UInt32.max)).log").path
    guard let handler = try? FileLogHandler(path: path) else { return Logger() }
    return Logger(handler: handler)
}
