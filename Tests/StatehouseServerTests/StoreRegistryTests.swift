import DemoReducers
@testable import StatehouseServer
import Testing

/// A lookup memo answers like the locked table: a memoized answer (found or not) is never used after `add` or
/// `remove` changed the table.
@Suite struct StoreRegistryTests {
    static func counter(_ name: String) throws -> HostedStore {
        var catalog = ReducerCatalog()
        catalog.register(Counter.self)
        return try catalog.build(
            ServerConfiguration.StoreDeclaration(name: name, reducer: "Counter", initialState: nil), historySize: 4,
            executor: nil, logger: Logger(handler: InMemoryLogHandler()))
    }

    @Test func memoizedLookupsFollowEveryChange() throws {
        let first = try Self.counter("a")
        let registry = StoreRegistry(["a": first])
        var memo: StoreRegistry.Memo?
        #expect(registry.store(named: "a", memo: &memo) === first)
        #expect(registry.store(named: "a", memo: &memo) === first)
        #expect(registry.store(named: "b", memo: &memo) == nil)
        let second = try Self.counter("b")
        guard case .added = registry.add(second, limit: 10) else { Issue.record("b not added"); return }
        #expect(registry.store(named: "b", memo: &memo) === second, "a memoized miss must not hide a new store")
        #expect(registry.remove("b") === second)
        #expect(registry.store(named: "b", memo: &memo) == nil, "a memoized hit must not outlive a removal")
        #expect(registry.store(named: "a", memo: &memo) === first)
        _ = registry.remove("a")
        let replacement = try Self.counter("a")
        _ = registry.add(replacement, limit: 10)
        #expect(registry.store(named: "a", memo: &memo) === replacement, "a store made again under the same name")
        var other: StoreRegistry.Memo?
        #expect(registry.store(named: "a", memo: &other) === replacement)
        #expect(registry.store(named: "c", memo: &other) == nil)
    }
}
