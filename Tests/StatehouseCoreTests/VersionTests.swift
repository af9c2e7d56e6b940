import StatehouseCore
import StatehouseTestClients
import Testing

@Suite struct VersionTests {
    @Test func startsAtZero() async {
        let store = Store(reducer: Tally(), state: .init())
        #expect(await store.version == 0)
        #expect(await store.snapshot.version == 0)
    }

    @Test func equalStateKeepsVersionAndNotifiesNobody() async {
        let store = Store(reducer: Tally(), state: .init())
        let calls = Recorder<UInt64>()
        _ = await store.observe { calls.append($0.version) }

        #expect(await store.send(.set(0)).version == 0)
        #expect(calls.values.isEmpty)

        #expect(await store.send(.set(5)).version == 1)
        #expect(await store.send(.set(5)).version == 1)
        #expect(await store.send(.set(5)).version == 1)
        #expect(calls.values == [1])

        #expect(await store.send(.set(6)).version == 2)
        #expect(calls.values == [1, 2])
        #expect(await store.state.value == 6)
    }
}
