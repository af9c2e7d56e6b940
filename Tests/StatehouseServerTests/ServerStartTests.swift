import DemoReducers
import Foundation
import StatehouseServer
import Testing

/// `Server.start()` waits for its stores to start; the waiting must not need Swift's cooperative pool.
struct ServerStartTests {
    /// Eight servers started at once from eight child tasks, each blocking its pool thread in `start()` until its stores
    /// have started: more than this machine's pool has threads (2 here). When the stores' start needed a pool thread,
    /// this deadlocked (seen in `make test` as two server tests starting at once); a watchdog ends the process with a
    /// message if it has not finished in 120 s.
    @Test func serversStartedFromEveryPoolThreadAtOnceDoNotDeadlock() async throws {
        let finished = DispatchSemaphore(value: 0)
        let watchdog = Thread {
            if finished.wait(timeout: .now() + 120) == .timedOut {
                fatalError("ServerStartTests: Server.start() from the cooperative pool deadlocked")
            }
        }
        watchdog.start()
        defer { finished.signal() }
        let count = max(8, 2 * ProcessInfo.processInfo.activeProcessorCount)
        let ports = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask {
                    let (logger, _) = TestLogs.logger()
                    let server = try Server(
                        configuration: ServerConfiguration(
                            host: "127.0.0.1", port: 0, stores: [.init(name: "counter", reducer: "Counter")]),
                        catalog: ReducerCatalog.demo, logger: logger)
                    let port = try server.start()  // blocks this pool thread until the stores have started
                    server.shutdown()
                    return port
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(ports.count == count)
        #expect(ports.allSatisfy { $0 > 0 })
    }
}
