import StatehouseCore
import StatehouseTestClients
import Testing
import Synchronization
import Locking

@Suite struct IdleTests {
    @Test func untilIdleWaitsForRunningEffects() async {
        let release = Gate()
        let store = Store(
            reducer: Script(script: { action in
                guard action == .trigger("go") else { return .none }
                return .sequence { send in
                    await release.wait()
                    await send(.event("done"))
                }
            }),
            state: .init()
        )
        // A new store is busy until it has handled its start (the first envelope; bind is `.none` here).
        await store.untilIdle()
        #expect(await store.isIdle)
        _ = await store.send(.trigger("go"))
        #expect(await store.isIdle == false)
        let idle = Gate()
        let waiter = Task {
            await store.untilIdle()
            idle.open()
        }
        // Still waiting: the effect has not finished. A round trip through the actor shows it.
        _ = await store.send(.event("probe"))
        #expect(await store.isIdle == false)
        release.open()
        await idle.wait()
        await waiter.value
        #expect(await store.isIdle)
        #expect(await store.state.events == ["probe", "done"])
    }

    /// OneWay's `isIdle` leaves out the binding task: a store whose only work is a never-ending bind() subscription is
    /// idle, while an effect started by an action the subscription sent still counts.
    @Test func bindsOwnTasksDoNotKeepTheStoreBusy() async {
        let feed = AsyncStream<String>.makeStream()
        let release = Gate()
        let stream = feed.stream
        let reducer = Script(
            script: { action in
                guard case .trigger = action else { return .none }
                return .sequence { send in
                    await release.wait()
                    await send(.event("done"))
                }
            },
            onBind: {
                .sequence { send in
                    for await value in stream { await send(.trigger(value)) }
                }
            })
        let store = Store(reducer: reducer, state: .init())
        #expect(await eventually { await store.isIdle })  // although bind's subscription runs on
        #expect(await store.runningEffectCount == 1)
        feed.continuation.yield("work")  // bind sends .trigger("work"), whose reduce starts an effect
        #expect(await eventually { await store.isIdle == false })
        release.open()
        await store.untilIdle()
        #expect(await store.state.events == ["done"])
        #expect(await store.runningEffectCount == 1)
    }
}

@Suite struct TapTests {
    @Test func tapSeesEveryActionWithItsOrigin() async {
        let store = Store(
            reducer: Script(script: { action in
                switch action {
                case .trigger("go"): .just(.event("effect")).cancellable("x")
                case .trigger("stop"): .cancel("x")
                default: .none
                }
            }),
            state: .init()
        )
        let seen = Recorder<String>()
        await store.tap { reduced in
            seen.append("\(reduced.action) effect=\(reduced.fromEffect) dropped=\(reduced.dropped)")
        }
        store.enqueue(.trigger("go"))
        store.enqueue(.trigger("stop"))
        _ = await store.send(.trigger("go"))
        await store.untilIdle()
        // Mailbox: [go, stop, go]; each `go` queues its `.just` at the end, the first one after
        // its run was cancelled by `stop`.
        #expect(seen.values == [
            "trigger(\"go\") effect=false dropped=false",
            "trigger(\"stop\") effect=false dropped=false",
            "trigger(\"go\") effect=false dropped=false",
            "event(\"effect\") effect=true dropped=true",
            "event(\"effect\") effect=true dropped=false",
        ])
    }
}

@Suite struct ErrorLineTests {
    @Test func lineNamesTheStoreAndTheCancellationID() async {
        let lines = Recorder<String>()
        let store = Store(
            reducer: Script(script: { _ in
                Effect.single { throw TestError(description: "boom") }.cancellable("later")
            }),
            state: .init(),
            name: "counter",
            logger: { lines.append($0) }
        )
        _ = await store.send(.trigger("go"))
        await store.untilIdle()
        #expect(lines.values == ["store counter: effect later failed: boom"])
    }
}

@Suite struct MemoryTests {
    /// Counts live `Payload` instances.
    final class LiveCount: Sendable {
        private let count = Locked(0)
        func add(_ delta: Int) { count.withLock { $0 += delta } }
        var value: Int { count.withLock { $0 } }
    }

    final class Payload: Sendable {
        let counter: LiveCount
        init(_ counter: LiveCount) {
            self.counter = counter
            counter.add(1)
        }
        deinit { counter.add(-1) }
    }

    /// Each action replaces the payload: a new state that holds a fresh object.
    struct Replacer: Reducer {
        struct State: Equatable, Sendable {
            var payload: Payload
            static func == (lhs: State, rhs: State) -> Bool { lhs.payload === rhs.payload }
        }
        let counter: LiveCount
        func reduce(state: inout State, action: Void) -> Effect<Void> {
            state.payload = Payload(counter)
            return .none
        }
    }

    @Test func neverReadingStatesConsumerHoldsAtMostOneSnapshot() async {
        let counter = LiveCount()
        let store = Store(reducer: Replacer(counter: counter), state: .init(payload: Payload(counter)))
        let stream = await store.states()
        for _ in 0..<999 {
            store.enqueue(())
        }
        _ = await store.send(())
        // The current state's payload plus at most one buffered in the stream.
        #expect(counter.value <= 2)
        #expect(await store.version == 1_000)
        withExtendedLifetime(stream) {}
    }
}
