import StatehouseCore
import StatehouseTestClients
import Testing

@Suite struct ResetTests {
    @Test func noActionOfARunningSequenceIsReducedAfterTheReset() async {
        let store = tickingStore()
        _ = await store.send(.trigger("go"))
        #expect(await eventually { await store.state.ticks >= 3 })
        let afterReset = await store.reset(.restoringInitialState)
        #expect(afterReset.state == Script.State())
        await store.untilIdle()
        // A tick reduced after the reset would have made `ticks` non-zero again.
        #expect(await store.state.ticks == 0)
        #expect(await store.runningEffectCount == 0)
        #expect(await settle(store))
    }

    @Test func queuedTopLevelJustIsDropped() async {
        let store = Store(
            reducer: Script(script: { action in
                action == .trigger("go") ? .just(.event("from effect")) : .none
            }),
            state: .init()
        )
        // Mailbox: [go, reset]; reducing `go` queues its `.just` behind the reset.
        store.enqueue(.trigger("go"))
        _ = await store.reset(.restoringInitialState)
        await store.untilIdle()
        #expect(await store.state.events.isEmpty)
        #expect(await store.droppedActionCount == 1)
    }

    @Test func versionBumpsOnlyWhenTheStateChanged() async {
        let store = Store(reducer: Tally(), state: .init())
        let seen = Recorder<UInt64>()
        _ = await store.observe { seen.append($0.version) }
        #expect(await store.reset(.restoringInitialState).version == 0)
        #expect(seen.values.isEmpty)

        _ = await store.send(.increment)
        let snapshot = await store.reset(.restoringInitialState)
        #expect(snapshot.version == 2)
        #expect(snapshot.state.count == 0)
        #expect(seen.values == [1, 2])
    }

    @Test func initialStateIsReadableAndStaysWhileTheStateChanges() async {
        let store = Store(reducer: Tally(), state: .init(count: 5))
        _ = await store.send(.increment)
        #expect(store.initialState.count == 5)
        #expect(await store.state.count == 6)
        let recovered = Store(reducer: Tally(), state: .init(), recovered: Snapshot(version: 9, state: .init(count: 9)))
        #expect(recovered.initialState.count == 0)
    }

    @Test func resetIsFIFOWithActions() async {
        let store = Store(reducer: Tally(), state: .init())
        store.enqueue(.increment)
        let reset = Recorder<Snapshot<Tally.State>>()
        store.enqueueReset(.restoringInitialState) { reset.append($0) }
        let after = await store.send(.increment)
        #expect(reset.values.map(\.version) == [2])
        #expect(after.version == 3)
        #expect(after.state.count == 1)
    }

    @Test func bindRestartsWhenTheStoreWasStarted() async {
        let binds = Recorder<Int>()
        let store = Store(
            reducer: Script(onBind: {
                .sequence { send in
                    binds.append(1)
                    await send(.event("bound"))
                    // Long-lived: runs until the reset cancels it.
                    try? await Task.sleep(for: .seconds(3_600))
                }
            }),
            state: .init(),
            startsAtInit: false
        )
        _ = await store.reset(.restoringInitialState)
        #expect(binds.values.isEmpty)
        await store.start()
        #expect(await eventually { await store.state.events == ["bound"] })
        _ = await store.reset(.restoringInitialState)
        #expect(await eventually { await store.state.events == ["bound"] && binds.values.count == 2 })
        #expect(await store.runningEffectCount == 1)
    }

    @Test func keepingResetCancelsEffectsAndLeavesStateAndVersion() async {
        let store = tickingStore()
        _ = await store.send(.trigger("go"))
        #expect(await eventually { await store.state.ticks >= 3 })
        let seen = Recorder<UInt64>()
        let registration = await store.observe { seen.append($0.version) }
        let kept = await store.reset(.keepingState)
        // The reset changed nothing itself: the state and version are those of the last tick before it.
        #expect(kept.state.ticks >= 3)
        #expect(kept.version >= registration.current.version)
        #expect(seen.values.allSatisfy { $0 <= kept.version })
        await store.untilIdle()
        // A tick reduced after the reset would have moved the state on.
        #expect(await store.snapshot == kept)
        #expect(await store.runningEffectCount == 0)
        #expect(await settle(store))
    }

    @Test func keepingResetClosesThrottleWindows() async {
        let clock = ManualClock()
        let store = timedStore(clock) { .just(.event($0)).throttle("t", for: .seconds(1)) }
        _ = await store.send(.trigger("t1"))
        _ = await store.send(.trigger("t2"))  // inside the window: ignored
        _ = await store.reset(.keepingState)
        _ = await store.send(.trigger("t3"))  // the window was closed: leads again
        #expect(await store.send(.event("probe")).state.events == ["t1", "t3", "probe"])
    }

    @Test func keepingResetRestartsBindOnAStartedStore() async {
        let binds = Recorder<Int>()
        let store = Store(
            reducer: Script(onBind: {
                binds.append(1)
                return .just(.event("bound"))
            }),
            state: .init(),
            startsAtInit: false
        )
        await store.start()
        _ = await store.send(.event("sent"))
        _ = await store.reset(.keepingState)
        // The state is kept, so the second bind's action adds to it (a restoring reset would start from []).
        let final = await store.send(.event("after"))
        #expect(final.state.events == ["bound", "sent", "bound", "after"])
        #expect(binds.values.count == 2)
    }

    @Test func pendingSettleCompletesWhenResetCancelsItsEffects() async throws {
        let store = Store(
            reducer: Script(script: { action in
                action == .trigger("go") ? .sequence { _ in try await Task.sleep(for: .seconds(3_600)) } : .none
            }),
            state: .init()
        )
        let waiter = Task { try await store.sendAndSettle(.trigger("go"), timeout: .seconds(3_600)) }
        #expect(await eventually { await store.runningEffectCount == 1 })
        _ = await store.reset(.restoringInitialState)
        let snapshot = try await waiter.value
        #expect(snapshot.version == 0)
    }
}
