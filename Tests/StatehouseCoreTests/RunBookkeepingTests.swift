import StatehouseCore
import StatehouseTestClients
import Testing

@Suite struct RunBookkeepingTests {
    @Test func finishedRunsAreForgotten() async {
        let store = Store(
            reducer: Script(script: { action in
                guard case .spawn(let number) = action else { return .none }
                switch number % 4 {
                case 0: return .single { .tick }.cancellable(number % 7)
                case 1: return .just(.tick).cancellable("just \(number)")
                case 2: return .concat(.just(.tick), .single { .tick }.cancellable(number))
                default:
                    return .merge(.single { .tick }, .just(.tick).cancellable("shared"))
                        .cancellable(number, cancelInFlight: true)
                }
            }),
            state: .init()
        )
        for number in 0..<10_000 {
            store.enqueue(.spawn(number))
        }
        // 2,500 × (1 + 1 + 2 + 2) ticks.
        #expect(await eventually { await store.state.ticks == 15_000 })
        #expect(await settle(store))
        let counts = await store.runBookkeepingCounts
        #expect(counts.runs == 0)
        #expect(counts.effectIDs == 0)
        #expect(await store.runningEffectCount == 0)
    }

    @Test func runningEffectCountCountsLiveTasks() async {
        let release = Gate()
        let store = Store(
            reducer: Script(script: { action in
                guard action == .trigger("go") else { return .none }
                return .sequence { _ in await release.wait() }
            }),
            state: .init()
        )
        _ = await store.send(.trigger("go"))
        _ = await store.send(.trigger("go"))
        #expect(await store.runningEffectCount == 2)
        release.open()
        #expect(await settle(store))
    }
}

@Suite struct BindTests {
    @Test func bindRunsOnceAtStart() async {
        let binds = Recorder<Int>()
        let store = Store(
            reducer: Script(onBind: {
                binds.append(1)
                return .just(.event("bound"))
            }),
            state: .init(),
            startsAtInit: false
        )
        _ = await store.send(.event("before"))
        #expect(binds.values.isEmpty)
        await store.start()
        await store.start()
        await store.start()
        let final = await store.send(.event("after"))
        #expect(final.state.events == ["before", "bound", "after"])
        #expect(binds.values.count == 1)
    }
}

@Suite struct StartAtInitTests {
    @Test func bindIsStartedBeforeTheFirstActionIsReduced() async {
        let binds = Recorder<Int>()
        let bindsWhenFirstIsReduced = Recorder<Int>()
        let store = Store(
            reducer: Script(
                script: { action in
                    if action == .event("first") { bindsWhenFirstIsReduced.append(binds.values.count) }
                    return .none
                },
                onBind: {
                    binds.append(1)
                    return .just(.event("bound"))
                }),
            state: .init()
        )
        // The start is the first envelope of the mailbox: bind's effect is started (its `.just` queued) before
        // "first" is reduced, so its action comes before anything sent after "first" (before or after "first"
        // itself, depending on whether the start was handled before "first" was enqueued).
        _ = await store.send(.event("first"))
        let final = await store.send(.event("second"))
        #expect(bindsWhenFirstIsReduced.values == [1])
        #expect(final.state.events.sorted() == ["bound", "first", "second"])
        #expect(final.state.events.last == "second")
        #expect(binds.values.count == 1)
    }
}
