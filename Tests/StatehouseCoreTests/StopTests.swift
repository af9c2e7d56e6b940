import StatehouseCore
import Testing

@Suite struct StopTests {
    /// A stop cancels running effects and drops every later action; state and version stay.
    @Test func stopCancelsEffectsAndDropsLaterActions() async {
        let store = tickingStore()
        _ = await store.send(.trigger("go"))
        #expect(await eventually { await store.state.ticks >= 3 })
        let stopped = await withCheckedContinuation { continuation in
            store.enqueueStop { continuation.resume(returning: $0) }
        }
        await store.untilIdle()
        #expect(await store.state.ticks == stopped.state.ticks)
        #expect(await store.version == stopped.version)
        store.enqueue(.tick)
        await store.untilIdle()
        #expect(await store.state.ticks == stopped.state.ticks)
        #expect(await store.runningEffectCount == 0)
    }

    /// A stop releases the observers, so an owner captured by its own store's observer is freed (no cycle).
    @Test func stopReleasesObservers() async {
        final class Owner: Sendable {}
        weak var weakOwner: Owner?
        let store = Store(reducer: Script(script: { _ in .none }), state: .init())
        do {
            let owner = Owner()
            weakOwner = owner
            _ = await store.observe { _ in withExtendedLifetime(owner) {} }
        }
        #expect(weakOwner != nil)
        #expect(await store.observerCount == 1)
        await withCheckedContinuation { continuation in
            store.enqueueStop { _ in continuation.resume() }
        }
        #expect(await store.observerCount == 0)
        #expect(weakOwner == nil)
    }

    /// A stop finishes every `states()` stream: a consumer's loop ends (after the newest snapshot) instead of
    /// waiting forever; a stream asked of a stopped store yields its final snapshot and ends.
    @Test(.timeLimit(.minutes(1))) func stopFinishesStateStreams() async {
        let store = Store(reducer: Script(script: { _ in .none }), state: .init())
        let stream = await store.states()
        let consumer = Task {
            var versions: [UInt64] = []
            for await snapshot in stream { versions.append(snapshot.version) }
            return versions
        }
        _ = await store.send(.tick)
        await withCheckedContinuation { continuation in
            store.enqueueStop { _ in continuation.resume() }
        }
        let seen = await consumer.value
        #expect(seen.last == 1)
        var late = await store.states().makeAsyncIterator()
        #expect(await late.next()?.version == 1)
        #expect(await late.next() == nil)
    }
}
