import DemoReducers
import Foundation
import Glibc
import StatehouseCore
@testable import StatehouseServer
import StatehouseTestClients
import Testing

extension ServerTests {
    /// What a small idle store costs in server memory: heap bytes in use (glibc `mallinfo2().uordblks`) before and
    /// after building and starting many `Counter` stores the way `PUT /stores/{name}` does.
    ///
    /// Serialized with the other server suites (nested in ``ServerTests``) so no server runs meanwhile; other test
    /// targets' noise is small against tens of MiB.
    @Suite struct StoreMemoryTests {
        static let storeCount = 20_000
        /// Bytes per store. Measured on Linux x86_64: 1,868 (in-process) and 1,925 (over HTTP) before the idle-store
        /// diet, 992 and about 1,050 after; the issue's goal is 2 KiB.
        static let bound = 1_536.0

        /// Heap bytes allocated and not yet freed, all arenas: glibc `mallinfo2()` `uordblks` + `hblkhd` (mmapped).
        ///
        /// Swift's Glibc module does not import `<malloc.h>`, so the function is found with `dlsym` and called
        /// through a C function type returning an imported C struct of the same size (80 bytes: ten `size_t`), so
        /// the C return convention (a hidden result pointer, as for any struct over 16 bytes) matches.
        static func heapInUse() throws -> Int {
            typealias MallInfo2 = posix_spawn_file_actions_t
            typealias Function = @convention(c) () -> MallInfo2
            try #require(MemoryLayout<MallInfo2>.size == 10 * MemoryLayout<Int>.size)
            let symbol = try #require(dlsym(nil, "mallinfo2"), "glibc 2.33 or later has mallinfo2")
            var info = unsafeBitCast(symbol, to: Function.self)()
            return withUnsafeBytes(of: &info) { fields in
                let hblkhd = fields.load(fromByteOffset: 4 * MemoryLayout<Int>.size, as: Int.self)
                let uordblks = fields.load(fromByteOffset: 7 * MemoryLayout<Int>.size, as: Int.self)
                return uordblks + hblkhd
            }
        }

        @Test func idleCounterStoreCostsUnderOneAndAHalfKiB() async throws {
            var catalog = ReducerCatalog()
            catalog.register(Counter.self)
            let names = (0..<Self.storeCount).map { "counter-\($0)" }
            let logger = Logger(handler: InMemoryLogHandler())
            var stores: [String: HostedStore] = [:]
            stores.reserveCapacity(Self.storeCount)
            let before = try Self.heapInUse()
            for name in names {
                let declaration = ServerConfiguration.StoreDeclaration(name: name, reducer: "Counter", initialState: nil)
                let store = try catalog.build(declaration, historySize: 64, executor: nil, logger: logger)
                await store.start()
                stores[name] = store
            }
            let after = try Self.heapInUse()
            let perStore = Double(after - before) / Double(Self.storeCount)
            print("StoreMemoryTests: \(Self.storeCount) idle Counter stores, \(Int(perStore.rounded())) bytes per store")
            #expect(stores.count == Self.storeCount)
            #expect(stores["counter-7"]?.read().version == 0)
            #expect(perStore <= Self.bound, "an idle Counter store costs \(perStore) bytes of heap")
        }

        /// The same through the real path, `PUT /stores/{name}` on a running server: also counts the server's
        /// registry entry and anything a PUT leaves behind. A warm-up first, so one-time costs are not counted.
        @Test func storeCreatedOverHTTPCostsUnderOneAndAHalfKiB() async throws {
            let count = 5_000
            let perStore = try await TestServer.with { server in
                let port = server.port
                return try await blocking {
                    let client = try TestHTTPClient(port: port)
                    defer { client.close() }
                    func create(_ range: Range<Int>) throws {
                        for index in range {
                            let response = try client.request("PUT", "/stores/idle-\(index)", body: #"{"reducer":"Counter"}"#)
                            guard response.status == 201 else { throw TestFailure("PUT idle-\(index): \(response.status)") }
                        }
                    }
                    try create(0..<500)
                    let before = try Self.heapInUse()
                    try create(500..<(500 + count))
                    let after = try Self.heapInUse()
                    return Double(after - before) / Double(count)
                }
            }
            print("StoreMemoryTests: \(count) Counter stores over HTTP, \(Int(perStore.rounded())) bytes per store")
            #expect(perStore <= Self.bound, "a Counter store created over HTTP costs \(perStore) bytes of heap")
        }
    }
}
