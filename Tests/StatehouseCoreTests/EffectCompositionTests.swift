import StatehouseCore
import StatehouseTestClients
import Testing

@Suite struct EffectCompositionTests {
    @Test func singleAndSequenceFeedActionsBack() async {
        let store = Store(
            reducer: Script(script: { action in
                guard action == .trigger("go") else { return .none }
                return .concat(
                    .single { .event("single") },
                    .sequence { send in
                        await send(.event("s1"))
                        await send(.event("s2"))
                    }
                )
            }),
            state: .init()
        )
        store.enqueue(.trigger("go"))
        #expect(await eventually { await store.state.events == ["single", "s1", "s2"] })
        #expect(await settle(store))
    }

    @Test func mergeRunsChildrenConcurrently() async {
        // The first child can only finish after the second has started: a sequential merge deadlocks.
        let secondStarted = Gate()
        let store = Store(
            reducer: Script(script: { action in
                guard action == .trigger("go") else { return .none }
                return .merge(
                    .sequence { send in
                        await secondStarted.wait()
                        await send(.event("first"))
                    },
                    .sequence { send in
                        secondStarted.open()
                        await send(.event("second"))
                    }
                )
            }),
            state: .init()
        )
        store.enqueue(.trigger("go"))
        #expect(await eventually { await store.state.events.sorted() == ["first", "second"] })
    }

    @Test func concatRunsChildrenStrictlyOneAfterAnother() async {
        let firstStarted = Gate()
        let release = Gate()
        let steps = Recorder<String>()
        let store = Store(
            reducer: Script(script: { action in
                guard action == .trigger("go") else { return .none }
                return .concat(
                    .sequence { send in
                        steps.append("1 start")
                        firstStarted.open()
                        await release.wait()
                        await send(.event("1"))
                        steps.append("1 end")
                    },
                    .sequence { send in
                        steps.append("2 start")
                        await send(.event("2"))
                    }
                )
            }),
            state: .init()
        )
        store.enqueue(.trigger("go"))
        await firstStarted.wait()
        _ = await store.send(.event("probe"))
        release.open()
        #expect(await eventually { await store.state.events.count == 3 })
        #expect(await store.state.events == ["probe", "1", "2"])
        #expect(steps.values == ["1 start", "1 end", "2 start"])
    }

    @Test func concatWaitsForEverythingAChildStarted() async {
        let release = Gate()
        let steps = Recorder<String>()
        let store = Store(
            reducer: Script(script: { action in
                guard action == .trigger("go") else { return .none }
                return .concat(
                    .merge(
                        .just(.event("fast")),
                        .sequence { send in
                            await release.wait()
                            await send(.event("slow"))
                            steps.append("slow end")
                        }
                    ),
                    .sequence { send in
                        steps.append("next start")
                        await send(.event("next"))
                    }
                )
            }),
            state: .init()
        )
        store.enqueue(.trigger("go"))
        #expect(await eventually { await store.state.events == ["fast"] })
        release.open()
        #expect(await eventually { await store.state.events == ["fast", "slow", "next"] })
        #expect(steps.values == ["slow end", "next start"])
    }

    @Test func justIsEnqueuedDuringTheReduceWithoutATask() async {
        let store = Store(
            reducer: Script(script: { action in
                action == .trigger("go") ? .merge(.just(.event("a")), .just(.event("b"))) : .none
            }),
            state: .init()
        )
        _ = await store.send(.trigger("go"))
        #expect(await store.runningEffectCount == 0)
        let final = await store.send(.event("after"))
        #expect(final.state.events == ["a", "b", "after"])
    }
}
