import StatehouseCore
import StatehouseTestClients
import Testing

@Suite struct CreateTests {
    @Test func topLevelCreateIsBuiltDuringTheReduce() async {
        let made = Recorder<Int>()
        let store = Store(
            reducer: Script(script: { action in
                guard action == .trigger("go") else { return .none }
                return .create {
                    made.append(1)
                    return .just(.event("made"))
                }
            }),
            state: .init()
        )
        #expect(made.values.isEmpty)
        _ = await store.send(.trigger("go"))
        #expect(made.values.count == 1)
        #expect(await store.send(.event("probe")).state.events == ["made", "probe"])
    }

    /// `concat(wait for release, create { … })`, cancellable under "c"; optionally cancelled while
    /// the first step waits. Returns how many times `make` ran and the final events.
    private func runConcat(cancelling: Bool) async -> (made: Int, events: [String]) {
        let made = Recorder<Int>()
        let waiting = Gate()
        let release = Gate()
        let store = Store(
            reducer: Script(script: { action in
                switch action {
                case .trigger("go"):
                    .concat(
                        .sequence { _ in
                            waiting.open()
                            await release.wait()
                        },
                        .create {
                            made.append(1)
                            return .just(.event("made"))
                        }
                    )
                    .cancellable("c")
                case .trigger("stop"): .cancel("c")
                default: .none
                }
            }),
            state: .init()
        )
        _ = await store.send(.trigger("go"))
        await waiting.wait()
        // Not built while the first step runs.
        #expect(made.values.isEmpty)
        if cancelling {
            _ = await store.send(.trigger("stop"))
        }
        release.open()
        await store.untilIdle()
        return (made.values.count, await store.state.events)
    }

    @Test func createInACancelledConcatIsNeverBuilt() async {
        let result = await runConcat(cancelling: true)
        #expect(result.made == 0)
        #expect(result.events.isEmpty)
    }

    @Test func createInAConcatIsBuiltWhenReached() async {
        let result = await runConcat(cancelling: false)
        #expect(result.made == 1)
        #expect(result.events == ["made"])
    }
}

@Suite struct EffectBuilderTests {
    @Test func builderSupportsIfElseForAndOptionals() async {
        let store = Store(
            reducer: Script(script: { action in
                guard case .spawn(let count) = action else { return .none }
                let optional: Effect<Script.Action>? = count > 2 ? .just(.event("optional")) : nil
                return .concat {
                    .just(.event("first"))  // implicit member syntax works in the builder
                    if count.isMultiple(of: 2) {
                        Effect.just(.event("even"))
                    } else {
                        Effect.just(.event("odd"))
                    }
                    if count > 1 {
                        Effect.single { .event("if") }
                    }
                    for index in 0..<count {
                        Effect.just(.event("for \(index)"))
                    }
                    optional
                }
            }),
            state: .init()
        )
        _ = await store.send(.spawn(3))
        await store.untilIdle()
        #expect(await store.state.events == ["first", "odd", "if", "for 0", "for 1", "for 2", "optional"])

        _ = await store.send(.spawn(0))
        await store.untilIdle()
        #expect(await store.state.events.suffix(2) == ["first", "even"])
    }

    @Test func mergeBuilderDeliversInCompletionOrder() async {
        let gates = (0..<3).map { _ in Gate() }
        let store = Store(
            reducer: Script(script: { action in
                guard action == .trigger("go") else { return .none }
                return .merge {
                    for (index, gate) in gates.enumerated() {
                        Effect.single {
                            await gate.wait()
                            return .event("child \(index)")
                        }
                    }
                }
            }),
            state: .init()
        )
        _ = await store.send(.trigger("go"))
        for index in [2, 0, 1] {
            gates[index].open()
            #expect(await eventually { await store.state.events.last == "child \(index)" })
        }
        await store.untilIdle()
        #expect(await store.state.events == ["child 2", "child 0", "child 1"])
    }

    @Test func emptyBuilderIsNone() async {
        let store = Store(
            reducer: Script(script: { _ in .merge { } }),
            state: .init()
        )
        _ = await store.send(.trigger("go"))
        #expect(await store.isIdle)
        #expect(await store.runningEffectCount == 0)
    }
}
