import StatehouseCore
import StatehouseTestClients
import Testing

@Suite struct CancellationTests {
    @Test func queuedActionOfCancelledRunIsDropped() async {
        // The mailbox holds [start, stop]; reducing `start` queues `produced` behind `stop`.
        let store = Store(
            reducer: Script(script: { action in
                switch action {
                case .trigger("start"): .just(.event("produced")).cancellable("x")
                case .trigger("stop"): .cancel("x")
                default: .none
                }
            }),
            state: .init()
        )
        store.enqueue(.trigger("start"))
        store.enqueue(.trigger("stop"))
        let final = await store.send(.event("probe"))
        #expect(final.state.events == ["probe"])
        #expect(await store.droppedActionCount == 1)
        #expect(await settle(store))

        // Control: without the cancel the action is reduced.
        _ = await store.send(.trigger("start"))
        #expect(await store.send(.event("probe")).state.events == ["probe", "produced", "probe"])
    }

    @Test func cancelledEffectSendsNothingAfterTheCancel() async {
        let reachedGate = Gate()
        let release = Gate()
        let sendReturned = Gate()
        let store = Store(
            reducer: Script(script: { action in
                switch action {
                case .trigger("start"):
                    .sequence { send in
                        await send(.event("first"))
                        reachedGate.open()
                        await release.wait()
                        await send(.event("late"))
                        sendReturned.open()
                    }
                    .cancellable("x")
                case .trigger("stop"): .cancel("x")
                default: .none
                }
            }),
            state: .init()
        )
        store.enqueue(.trigger("start"))
        await reachedGate.wait()
        _ = await store.send(.trigger("stop"))
        release.open()
        await sendReturned.wait()
        #expect(await store.send(.event("probe")).state.events == ["first", "probe"])
        // The cancelled task's `send` returned without enqueuing: nothing had to be dropped.
        #expect(await store.droppedActionCount == 0)
        #expect(await settle(store))
    }

    @Test func cancelInsideMergeStopsOnlyThatChild() async {
        let release = Gate()
        let store = Store(
            reducer: Script(script: { action in
                switch action {
                case .trigger("start"):
                    .merge(
                        .sequence { send in
                            await release.wait()
                            await send(.event("a"))
                        }
                        .cancellable("a"),
                        .sequence { send in
                            await release.wait()
                            await send(.event("b"))
                        }
                    )
                case .trigger("stop"): .cancel("a")
                default: .none
                }
            }),
            state: .init()
        )
        store.enqueue(.trigger("start"))
        _ = await store.send(.trigger("stop"))
        release.open()
        #expect(await settle(store))
        #expect(await store.state.events == ["b"])
    }

    @Test func cancelNestedInConcatHopsToTheStore() async {
        let release = Gate()
        let store = Store(
            reducer: Script(script: { action in
                switch action {
                case .trigger("long"):
                    .sequence { send in
                        await release.wait()
                        await send(.event("long"))
                    }
                    .cancellable("long")
                case .trigger("concat"):
                    .concat(.just(.event("1")), .cancel("long"), .single { .event("2") })
                default: .none
                }
            }),
            state: .init()
        )
        store.enqueue(.trigger("long"))
        store.enqueue(.trigger("concat"))
        #expect(await eventually { await store.state.events == ["1", "2"] })
        release.open()
        #expect(await settle(store))
        #expect(await store.state.events == ["1", "2"])
    }

    @Test func cancellingOuterIDStopsInnerWork() async {
        let store = NestedScenario()
        await store.run(cancelling: "outer")
        #expect(await store.store.state.events == ["probe"])
    }

    @Test func cancellingInnerIDLetsTheConcatContinue() async {
        let store = NestedScenario()
        await store.run(cancelling: "inner")
        #expect(await store.store.state.events == ["probe", "after"])
    }

    @Test func cancelInFlightKeepsOnlyTheLatestRun() async {
        let release = Gate()
        let store = Store(
            reducer: Script(script: { action in
                guard case .trigger(let name) = action else { return .none }
                return .sequence { send in
                    await release.wait()
                    await send(.event(name))
                }
                .cancellable("load", cancelInFlight: true)
            }),
            state: .init()
        )
        store.enqueue(.trigger("load1"))
        _ = await store.send(.trigger("load2"))
        release.open()
        #expect(await settle(store))
        #expect(await store.state.events == ["load2"])
    }

    @Test func withoutCancelInFlightBothRunsFinish() async {
        let release = Gate()
        let store = Store(
            reducer: Script(script: { action in
                guard case .trigger(let name) = action else { return .none }
                return .sequence { send in
                    await release.wait()
                    await send(.event(name))
                }
                .cancellable("load")
            }),
            state: .init()
        )
        store.enqueue(.trigger("load1"))
        _ = await store.send(.trigger("load2"))
        release.open()
        #expect(await settle(store))
        #expect(await store.state.events.sorted() == ["load1", "load2"])
    }
}

/// `concat(cancellable(inner), just(after))` wrapped in `cancellable("outer")`; cancels one id
/// while the inner work waits.
struct NestedScenario {
    let reached = Gate()
    let release = Gate()
    let store: Store<Script>

    init() {
        let reached = reached
        let release = release
        store = Store(
            reducer: Script(script: { action in
                switch action {
                case .trigger("start"):
                    .concat(
                        .sequence { send in
                            reached.open()
                            await release.wait()
                            await send(.event("inner"))
                        }
                        .cancellable("inner"),
                        .just(.event("after"))
                    )
                    .cancellable("outer")
                case .trigger(let id): .cancel(id)
                default: .none
                }
            }),
            state: .init()
        )
    }

    func run(cancelling id: String) async {
        store.enqueue(.trigger("start"))
        await reached.wait()
        _ = await store.send(.trigger(id))
        _ = await store.send(.event("probe"))
        release.open()
        #expect(await settle(store))
    }
}
