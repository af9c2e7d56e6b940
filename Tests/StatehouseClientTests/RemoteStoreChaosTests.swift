import DemoReducers
import Foundation
import Locking
import Statehouse
import StatehouseClient
import StatehouseServer
import StatehouseTestClients
import Testing

/// Issue 15's "done when" for the Swift client: 3 clients on one store, their connections cut and stalled at random
/// moments by Tests/Support/chaos_proxy.py while each sends 1,000 actions. Every action is applied exactly once,
/// every client ends on the same final state and version, and no client ever showed a version going back.
@Suite(.serialized) struct RemoteStoreChaosTests {
    static let clients = 3
    static let actionsPerClient = 1_000
    /// Actions each client keeps in flight at once.
    static let window = 8

    @Test func threeClientsUnderCutsAndStallsApplyEveryActionOnce() async throws {
        try await ClientTestServer.with { server in
        let proxy = try await ChaosProxy.start(upstream: server.port)
        defer { proxy.stop() }
        let seed = UInt64.random(in: 1...UInt64(UInt32.max))
        let configuration = RemoteServer.Configuration(
            backoff: Backoff(initialMs: 10, maxMs: 200), maxQueuedActions: Self.window, ackTimeoutMs: 60_000)
        let remotes = try (0..<Self.clients).map { _ in
            try RemoteServer("http://127.0.0.1:\(proxy.port)", configuration: configuration)
        }
        let stores = remotes.map { $0.store("counter", of: Counter.self) }
        for store in stores { _ = try await store.current() }
        // Every version each client showed, in the order it showed them.
        let shown = (0..<Self.clients).map { _ in Locked<[UInt64]>([]) }
        for (store, log) in zip(stores, shown) {
            _ = store.observe { snapshot in log.withLock { $0.append(snapshot.version) } }
        }
        try await proxy.command("chaos \(seed) 10 80")
        let replayed = Locked(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in stores {
                group.addTask {
                    try await withThrowingTaskGroup(of: Ack.self) { sends in
                        for index in 0..<Self.actionsPerClient {
                            if index >= Self.window, let ack = try await sends.next(), ack.replayed {
                                replayed.withLock { $0 += 1 }
                            }
                            sends.addTask { try await store.send(.increment) }
                        }
                        for try await ack in sends where ack.replayed { replayed.withLock { $0 += 1 } }
                    }
                }
            }
            try await group.waitForAll()
        }
        try await proxy.command("calm")
        let total = Self.clients * Self.actionsPerClient
        #expect(await server.count("counter") == total, "seed \(seed): every action applied exactly once")
        let finalVersion = UInt64(total)
        for store in stores {
            try await eventually { store.version == finalVersion }
            #expect(store.state?.count == total)
        }
        for (index, log) in shown.enumerated() {
            let versions = log.withLock { $0 }
            #expect(zip(versions, versions.dropFirst()).allSatisfy { $0 < $1 }, "seed \(seed): client \(index) went back")
        }
        let cuts = proxy.count("cut "), stalls = proxy.count("stall ")
        #expect(cuts >= 5, "seed \(seed): the proxy cut only \(cuts) connections, too few to prove anything")
        print("chaos seed \(seed): \(cuts) cuts, \(stalls) stalls, \(replayed.withLock { $0 }) replayed acks")
        for remote in remotes { await remote.close() }
        }
    }
}
