import StatehouseCore
import Testing

@Suite struct ThrottleTests {
    @Test func leadingRunsAtOnceAndIgnoresTheRestOfTheWindow() async {
        let clock = ManualClock()
        let store = timedStore(clock) { .just(.event($0)).throttle("t", for: .seconds(1)) }
        _ = await store.send(.trigger("t1"))
        _ = await store.send(.trigger("t2"))
        _ = await store.send(.trigger("t3"))
        #expect(await store.send(.event("probe")).state.events == ["t1", "probe"])
        clock.advance(by: .seconds(1))
        await store.untilIdle()
        #expect(await store.state.events == ["t1", "probe"])
        // The window ended with nothing kept: the id is forgotten and the next one leads again.
        #expect(await eventually { await store.throttleWindowCount == 0 })
        _ = await store.send(.trigger("t4"))
        #expect(await store.send(.event("probe")).state.events == ["t1", "probe", "t4", "probe"])
    }

    @Test func latestRunsTheLastIgnoredOneWhenTheWindowEnds() async {
        let clock = ManualClock()
        let store = timedStore(clock) { .just(.event($0)).throttle("t", for: .seconds(1), latest: true) }
        _ = await store.send(.trigger("t1"))
        _ = await store.send(.trigger("t2"))
        _ = await store.send(.trigger("t3"))
        #expect(await store.state.events == ["t1"])
        #expect(await store.isIdle == false)
        clock.advance(by: .seconds(1))
        await store.untilIdle()
        #expect(await store.state.events == ["t1", "t3"])

        // The trailing run opened a new window: t4 is kept, not run.
        _ = await store.send(.trigger("t4"))
        #expect(await store.state.events == ["t1", "t3"])
        clock.advance(by: .seconds(1))
        await store.untilIdle()
        #expect(await store.state.events == ["t1", "t3", "t4"])

        // A window with nothing kept ends and forgets the id.
        clock.advance(by: .seconds(1))
        #expect(await eventually { await store.throttleWindowCount == 0 })
        #expect(await settle(store))
    }

    @Test func cancelDiscardsTheKeptTrailingEffect() async {
        let clock = ManualClock()
        let store = timedStore(clock) { name in
            name == "stop" ? .cancel("t") : .just(.event(name)).throttle("t", for: .seconds(1), latest: true)
        }
        _ = await store.send(.trigger("t1"))
        _ = await store.send(.trigger("t2"))
        _ = await store.send(.trigger("stop"))
        #expect(await store.isIdle)
        clock.advance(by: .seconds(1))
        #expect(await eventually { await store.throttleWindowCount == 0 })
        #expect(await store.state.events == ["t1"])
    }
}
