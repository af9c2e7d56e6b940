import DemoReducers
import Foundation
import Locking
import Statehouse
@testable import StatehouseClient
import StatehouseServer
import StatehouseTestClients
import Testing
import UVLoop

/// `RemoteServer` and `RemoteStore` against the real server on 127.0.0.1:0, through the real transport; drops and
/// stalls come from Tests/Support/chaos_proxy.py between them.
@Suite(.serialized) struct RemoteStoreTests {
    @Test func sendReturnsTheAckAndTheStateFollows() async throws {
        try await ClientTestServer.with { server in
        let remote = try RemoteServer("http://127.0.0.1:\(server.port)")
        let counter = remote.store("counter", of: Counter.self)
        let first = try await counter.current()
        #expect(first.version == 0 && first.state.count == 0)
        for expected in 1...3 {
            let ack = try await counter.send(.increment)
            #expect(ack.version == UInt64(expected) && !ack.replayed)
            #expect((counter.version ?? 0) >= ack.version, "the state message precedes its ack")
        }
        #expect(counter.state?.count == 3)
        #expect(remote.status == .live)
        let statuses = remote.statuses()
        let states = counter.states()
        await remote.close()
        #expect(remote.status == .closed)
        var seen: [ConnectionStatus] = []
        for await status in statuses { seen.append(status) }
        #expect(seen == [.live, .closed], "the status stream ends after closed")
        var last: UInt64?
        for await snapshot in states { last = snapshot.version }
        #expect(last == 3, "a states() stream holds the newest snapshot and finishes when the server closes")
        await #expect(throws: ClientError.closed) { try await counter.send(.increment) }
        }
    }

    @Test func twoClientsStayInSync() async throws {
        try await ClientTestServer.with { server in
        let a = try RemoteServer("http://127.0.0.1:\(server.port)")
        let b = try RemoteServer("http://127.0.0.1:\(server.port)")
        let todosA = a.store("todos", of: TodoList.self)
        let todosB = b.store("todos", of: TodoList.self)
        _ = try await todosB.current()
        let seen = Locked<[UInt64]>([])
        let (_, token) = todosB.observe { snapshot in seen.withLock { $0.append(snapshot.version) } }
        for text in ["milk", "eggs", "bread"] { try await todosA.send(.add(text: text)) }
        try await eventually { todosB.state?.items.map(\.text) == ["milk", "eggs", "bread"] }
        let versions = seen.withLock { $0 }
        #expect(versions == versions.sorted() && Set(versions).count == versions.count, "version order, no repeats")
        todosB.removeObserver(token)
        await a.close()
        await b.close()
        }
    }

    @Test func actionsSentOfflineQueueAndGoOutInOrder() async throws {
        try await ClientTestServer.with { server in
        let proxy = try await ChaosProxy.start(upstream: server.port)
        defer { proxy.stop() }
        try await proxy.command("refuse on")
        let remote = try RemoteServer(
            "http://127.0.0.1:\(proxy.port)",
            configuration: .init(backoff: Backoff(initialMs: 20, maxMs: 100)))
        let counter = remote.store("counter", of: Counter.self)
        try await eventually { remote.status == .offline }
        let acks = Locked<[(Int, UInt64)]>([])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<5 {
                group.addTask {
                    let ack = try await counter.send(.add(amount: 1), id: "offline-\(index)-\(UUID())")
                    acks.withLock { $0.append((index, ack.version)) }
                }
                // Each send is queued before the next one starts: the order is the order of these calls.
                try await eventually { await remote.pendingActionCount() == index + 1 }
            }
            try await proxy.command("refuse off")
            try await group.waitForAll()
        }
        let byIndex = acks.withLock { $0.sorted { $0.0 < $1.0 }.map(\.1) }
        #expect(byIndex == [1, 2, 3, 4, 5], "applied in the order sent")
        #expect(counter.state?.count == 5)
        await remote.close()
        }
    }

    @Test func aCutDuringASendAppliesItOnce() async throws {
        try await ClientTestServer.with { server in
        let proxy = try await ChaosProxy.start(upstream: server.port)
        defer { proxy.stop() }
        let remote = try RemoteServer(
            "http://127.0.0.1:\(proxy.port)", configuration: .init(backoff: Backoff(initialMs: 20, maxMs: 100)))
        let counter = remote.store("counter", of: Counter.self)
        _ = try await counter.current()
        // The answer is held back: the action reaches the server, its ack does not reach the client; then the cut.
        try await proxy.command("stall 2000 down")
        async let ack = counter.send(.increment)
        try await eventually { await server.count("counter") == 1 }
        try await proxy.command("cut")
        let outcome = try await ack
        #expect(outcome.version == 1 && outcome.replayed, "answered from the server's record, not applied again")
        try await eventually { counter.version == 1 }
        #expect(await server.count("counter") == 1)
        await remote.close()
        }
    }

    @Test func aRestartedDurableServerIsResumedInTheSameEpoch() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("statehouse-client-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("statehouse.sqlite").path
        let durable: (inout ServerConfiguration) -> Void = { $0.storage = StorageConfiguration(path: database) }
        let first = try await ClientTestServer.start(configure: durable)
        let proxy = try await ChaosProxy.start(upstream: first.port)
        defer { proxy.stop() }
        let remote = try RemoteServer(
            "http://127.0.0.1:\(proxy.port)", configuration: .init(backoff: Backoff(initialMs: 20, maxMs: 100)))
        let counter = remote.store("counter", of: Counter.self)
        for _ in 0..<3 { try await counter.send(.increment) }
        let epoch = try #require(counter.epoch)
        let seen = Locked<[UInt64]>([])
        _ = counter.observe { snapshot in seen.withLock { $0.append(snapshot.version) } }
        await first.stop()
        try await eventually { remote.status == .offline }
        // Sent while the server is down: queued, then applied once after the restart.
        async let late = counter.send(.add(amount: 10))
        let second = try await ClientTestServer.start(configure: durable)
        try await proxy.command("upstream \(second.port)")
        let ack = try await late
        #expect(ack.version == 4 && counter.epoch == epoch, "a durable store keeps its epoch and versions")
        try await eventually { counter.state?.count == 13 }
        #expect(seen.withLock { $0 } == [4], "no snapshot of an older version, no repeat")
        await remote.close()
        await second.stop()
    }

    @Test func refusalsAreTypedErrorsWithTheServersCode() async throws {
        try await ClientTestServer.with { server in
        let remote = try RemoteServer("http://127.0.0.1:\(server.port)")
        let missing = remote.store("no-such-store", of: Counter.self)
        await #expect(throws: ClientError.self) { _ = try await missing.current() }
        do {
            _ = try await missing.current()
        } catch let error as ClientError {
            #expect(error.code == "store_not_found")
        }
        // The todos store is a TodoList: Counter's `increment` is not one of its actions.
        let mismatched = remote.store("todos", of: Counter.self)
        do {
            try await mismatched.send(.increment)
            Issue.record("an action of another reducer was accepted")
        } catch let error as ClientError {
            #expect(error.code == "invalid_action")
        }
        await remote.close()
        #expect(throws: ClientError.self) { _ = try RemoteServer("https://example.com") }
        }
    }

    @Test func aWrongTokenFailsSendsWithUnauthorized() async throws {
        try await ClientTestServer.with(configure: { configuration in
            configuration.auth = AccessPolicy(entries: [
                (AccessPolicy.sha256(Array("right-token-0123456789".utf8)), .init(stores: ["*"], scopes: [.read, .write]))
            ])
        }) { server in
        let wrong = try RemoteServer(
            "http://127.0.0.1:\(server.port)", configuration: .init(token: "wrong-token-0123456789"))
        do {
            try await wrong.store("counter", of: Counter.self).send(.increment)
            Issue.record("a wrong token was accepted")
        } catch let error as ClientError {
            #expect(error == .server(code: "unauthorized", message: error.message, status: 401))
        }
        await #expect(throws: ClientError.self, "a first snapshot never coming is an error, not a hang") {
            _ = try await wrong.store("todos", of: TodoList.self).current()
        }
        await wrong.close()
        let right = try RemoteServer(
            "http://127.0.0.1:\(server.port)", configuration: .init(token: "right-token-0123456789"))
        #expect(try await right.store("counter", of: Counter.self).send(.increment).version == 1)
        await right.close()
        }
    }

    @Test func aDroppedServerEndsItsConnectionAndLoop() async throws {
        try await ClientTestServer.with { server in
        let connection = WeakReference()
        let loop: EventLoop
        do {
            let remote = try RemoteServer("http://127.0.0.1:\(server.port)")
            connection.object = remote.connection
            loop = remote.loop
            _ = try await remote.store("counter", of: Counter.self).current()
        }
        // Dropped while connected: it closes itself; once its WebSocket is gone the connection is freed and the loop
        // thread stops (a leak here kept the thread, its libuv loop and its handles forever).
        try await eventually { loop.isStopped && connection.object == nil }
        }
    }

    @Test func eventsArriveDecoded() async throws {
        try await ClientTestServer.with(configure: { $0.stores.append(.init(name: "search", reducer: "Search")) }) { server in
        let remote = try RemoteServer("http://127.0.0.1:\(server.port)")
        let search = remote.store("search", of: Search.self)
        _ = try await search.current()
        let events = search.events()
        try await search.send(.select("kiwi"))
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .selected("kiwi"))
        search.close()
        #expect(await iterator.next() == nil, "the stream finishes when the store is closed")
        await remote.close()
        }
    }

    @Test func sendAndSettleWaitsForEffects() async throws {
        try await ClientTestServer.with { server in
        let remote = try RemoteServer("http://127.0.0.1:\(server.port)")
        let counter = remote.store("counter", of: Counter.self)
        let ack = try await counter.sendAndSettle(.incrementLater(ms: 50), timeout: .seconds(5))
        #expect(ack.version == 1, "the effect's increment happened before the ack")
        try await eventually { counter.state?.count == 1 }
        await remote.close()
        }
    }
}

/// Polls `condition` until it holds, for at most `timeout`.
func eventually(
    timeout: Duration = .seconds(10), _ condition: @Sendable () async throws -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(5))  // polling with a deadline
    }
    Issue.record("condition not met within \(timeout)", sourceLocation: sourceLocation)
    throw ChaosProxyError("condition not met within \(timeout)")
}

extension ClientTestServer {
    /// The `count` of a Counter store, read over HTTP (off the cooperative pool).
    func count(_ store: String) async -> Int? {
        let port = UInt16(self.port)
        return try? await blocking {
            let client = try TestHTTPClient(port: port)
            defer { client.close() }
            let state = try client.request("GET", "/stores/\(store)").json()["state"] as? [String: Any]
            return state?["count"] as? Int
        }
    }
}

/// A weak reference a test can poll from any task.
final class WeakReference: @unchecked Sendable {
    weak var object: AnyObject?
}
