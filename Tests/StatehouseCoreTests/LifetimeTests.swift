import StatehouseCore
import StatehouseTestClients
import Testing

/// A store whose last reference goes away cancels its effects (OneWay cancels them in its store's `deinit`): its
/// effect tasks hold it weakly, so a dropped store with a long-running effect does not live on through the effect.
/// Each test drops the store at the end of a `do` block, then awaits the signal its effect gives when cancelled (with a
/// deadline) and checks that a weak reference to the store is nil.
@Suite struct LifetimeTests {
    /// The user code of an effect that never ends by itself: it waits on a stream that never yields, after opening
    /// `started`, and opens `cancelled` when its task is cancelled.
    static func wait(started: Gate, cancelled: Gate) async {
        let (never, _) = AsyncStream.makeStream(of: Int.self)
        await withTaskCancellationHandler {
            started.open()
            for await _ in never {}
        } onCancel: {
            cancelled.open()
        }
    }

    /// A `.sequence` that never ends.
    static func endless(started: Gate, cancelled: Gate) -> Effect<Script.Action> {
        .sequence { _ in await wait(started: started, cancelled: cancelled) }
    }

    @Test func aDroppedStoreCancelsItsRunningSequence() async {
        let started = Gate()
        let cancelled = Gate()
        weak var dropped: Store<Script>?
        do {
            let store = Store(
                reducer: Script(script: { action in
                    action == .trigger("go") ? Self.endless(started: started, cancelled: cancelled) : .none
                }),
                state: .init()
            )
            dropped = store
            _ = await store.send(.trigger("go"))
            #expect(await started.wait(timeout: .seconds(10)))
            #expect(await store.runningEffectCount == 1)
        }
        // The effect's task saw the cancellation the store's deinit made; the store is gone.
        #expect(await cancelled.wait(timeout: .seconds(10)))
        #expect(dropped == nil)
    }

    @Test func aDroppedStoreCancelsItsRunningSingle() async {
        let started = Gate()
        let cancelled = Gate()
        weak var dropped: Store<Script>?
        do {
            let store = Store(
                reducer: Script(script: { action in
                    guard action == .trigger("go") else { return .none }
                    return .single {
                        await Self.wait(started: started, cancelled: cancelled)
                        return .tick
                    }
                }),
                state: .init()
            )
            dropped = store
            _ = await store.send(.trigger("go"))
            #expect(await started.wait(timeout: .seconds(10)))
        }
        #expect(await cancelled.wait(timeout: .seconds(10)))
        #expect(dropped == nil)
    }

    @Test func aDroppedStoreCancelsItsBindEffect() async {
        let started = Gate()
        let cancelled = Gate()
        weak var dropped: Store<Script>?
        do {
            let store = Store(
                reducer: Script(onBind: { Self.endless(started: started, cancelled: cancelled) }),
                state: .init()
            )
            dropped = store
            #expect(await started.wait(timeout: .seconds(10)))
        }
        #expect(await cancelled.wait(timeout: .seconds(10)))
        #expect(dropped == nil)
    }

    @Test func aDroppedStoreBoundToAnExecutorCancelsItsEffect() async {
        let started = Gate()
        let cancelled = Gate()
        weak var dropped: Store<Script>?
        do {
            let store = Store(
                reducer: Script(script: { action in
                    action == .trigger("go") ? Self.endless(started: started, cancelled: cancelled) : .none
                }),
                state: .init(),
                executor: QueueExecutor()
            )
            dropped = store
            _ = await store.send(.trigger("go"))
            #expect(await started.wait(timeout: .seconds(10)))
        }
        #expect(await cancelled.wait(timeout: .seconds(10)))
        #expect(dropped == nil)
    }

    @Test func aDroppedStoreCancelsItsClockSleeps() async {
        let clock = ManualClock()
        weak var dropped: Store<Script>?
        do {
            let store = timedStore(clock) { name in
                name == "later"
                    ? .just(.tick).delayed(by: .seconds(60))
                    : .just(.tick).throttle("t", for: .seconds(60))
            }
            dropped = store
            _ = await store.send(.trigger("later"))  // a task sleeping until 60 s
            _ = await store.send(.trigger("now"))  // a throttle window's timer sleeping until 60 s
            #expect(await eventually { clock.sleeperCount == 2 })
        }
        // Both sleeps were cancelled (a cancelled sleep leaves the manual clock).
        #expect(await eventually(timeout: .seconds(10)) { clock.sleeperCount == 0 })
        #expect(dropped == nil)
    }

    @Test func aDroppedStoreFinishesItsStreamsAndCompletesItsSettles() async {
        let started = Gate()
        let cancelled = Gate()
        let settled = Gate()
        let ended = Gate()
        let seen = Recorder<UInt64>()
        let settledAt = Recorder<UInt64>()
        do {
            let store = Store(
                reducer: Script(script: { action in
                    action == .trigger("go") ? Self.endless(started: started, cancelled: cancelled) : .none
                }),
                state: .init()
            )
            let stream = await store.states(bufferingPolicy: .unbounded)
            Task {
                for await snapshot in stream { seen.append(snapshot.version) }
                ended.open()
            }
            _ = await store.send(.event("changed"))
            store.enqueueAndSettle(.trigger("go"), timeout: .seconds(3_600)) { result in
                settledAt.append((try? result.get())?.version ?? 0)
                settled.open()
            }
            #expect(await started.wait(timeout: .seconds(10)))
        }
        #expect(await cancelled.wait(timeout: .seconds(10)))
        // The stream ended after the states it had; the settle wait completed as settled, with the final snapshot.
        #expect(await ended.wait(timeout: .seconds(10)))
        #expect(seen.values == [0, 1])
        #expect(await settled.wait(timeout: .seconds(10)))
        #expect(settledAt.values == [1])
    }
}
