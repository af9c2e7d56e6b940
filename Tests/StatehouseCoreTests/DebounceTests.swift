import StatehouseCore
import Testing

/// A store whose `.trigger(name)` runs `effect(name)` on a manual clock.
func timedStore(
    _ clock: ManualClock,
    _ effect: @escaping @Sendable (String) -> Effect<Script.Action>
) -> Store<Script> {
    Store(
        reducer: Script(script: { action in
            guard case .trigger(let name) = action else { return .none }
            return effect(name)
        }),
        state: .init(),
        clock: clock
    )
}

@Suite struct DelayedTests {
    @Test func delayedRunsOnlyOnceTheClockReachesTheDeadline() async {
        let clock = ManualClock()
        let store = timedStore(clock) { .just(.event($0)).delayed(by: .seconds(2)) }
        _ = await store.send(.trigger("late"))
        clock.advance(by: .milliseconds(1_999))
        #expect(await store.send(.event("probe")).state.events == ["probe"])
        #expect(await store.isIdle == false)
        clock.advance(by: .milliseconds(1))
        await store.untilIdle()
        #expect(await store.state.events == ["probe", "late"])
    }
}

@Suite struct DebounceTests {
    @Test func onlyTheLastOfABurstRuns() async {
        let clock = ManualClock()
        let store = timedStore(clock) { .just(.event($0)).debounce("search", for: .milliseconds(300)) }
        _ = await store.send(.trigger("q1"))
        clock.advance(by: .milliseconds(200))
        _ = await store.send(.trigger("q2"))
        _ = await store.send(.trigger("q3"))
        // q1's deadline (300 ms) passes here; it was replaced, so nothing runs.
        clock.advance(by: .milliseconds(200))
        #expect(await store.send(.event("probe")).state.events == ["probe"])
        // q3's deadline is 200 + 300 ms.
        clock.advance(by: .milliseconds(100))
        await store.untilIdle()
        #expect(await store.state.events == ["probe", "q3"])
        #expect(await settle(store))
    }

    @Test func cancelWhileWaitingRunsNothing() async {
        let clock = ManualClock()
        let store = timedStore(clock) { name in
            name == "stop" ? .cancel("search") : .just(.event(name)).debounce("search", for: .seconds(1))
        }
        _ = await store.send(.trigger("q1"))
        _ = await store.send(.trigger("stop"))
        clock.advance(by: .seconds(5))
        await store.untilIdle()
        #expect(await store.state.events.isEmpty)
        #expect(await settle(store))
    }

    @Test func debounceInsideCancellableStopsWithTheOuterID() async {
        let clock = ManualClock()
        let store = timedStore(clock) { name in
            switch name {
            case "stop": .cancel("screen")
            default: Effect.just(.event(name)).debounce("search", for: .seconds(1)).cancellable("screen")
            }
        }
        _ = await store.send(.trigger("q1"))
        _ = await store.send(.trigger("stop"))
        clock.advance(by: .seconds(1))
        await store.untilIdle()
        #expect(await store.state.events.isEmpty)

        // Control: without the outer cancel the debounced effect runs.
        _ = await store.send(.trigger("q2"))
        clock.advance(by: .seconds(1))
        await store.untilIdle()
        #expect(await store.state.events == ["q2"])
    }
}
