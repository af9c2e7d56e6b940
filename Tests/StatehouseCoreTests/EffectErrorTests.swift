import StatehouseCore
import StatehouseTestClients
import Testing

@Suite struct EffectErrorTests {
    /// A store whose `.trigger` runs `effect`, logging into `lines`.
    private func makeStore(
        _ lines: Recorder<String>,
        _ effect: @escaping @Sendable () -> Effect<Script.Action>
    ) -> Store<Script> {
        Store(
            reducer: Script(script: { action in
                action == .trigger("go") ? effect() : .none
            }),
            state: .init(),
            name: "errors",
            logger: { lines.append($0) }
        )
    }

    @Test func catchMapsTheErrorToAnAction() async {
        let lines = Recorder<String>()
        let store = makeStore(lines) {
            .single({ throw TestError(description: "boom") }, catch: { .event("caught \($0)") })
        }
        _ = await store.send(.trigger("go"))
        #expect(await settle(store))
        #expect(await store.state.events == ["caught boom"])
        #expect(lines.values.isEmpty)
    }

    @Test func sequenceErrorAfterSomeSends() async {
        let lines = Recorder<String>()
        let store = makeStore(lines) {
            .sequence(
                { send in
                    await send(.event("one"))
                    throw TestError(description: "late")
                },
                catch: { .event("caught \($0)") }
            )
        }
        _ = await store.send(.trigger("go"))
        #expect(await settle(store))
        #expect(await store.state.events == ["one", "caught late"])
    }

    @Test func catchReturningNilProducesNothing() async {
        let lines = Recorder<String>()
        let store = makeStore(lines) {
            .single({ throw TestError(description: "boom") }, catch: { _ in nil })
        }
        _ = await store.send(.trigger("go"))
        #expect(await settle(store))
        #expect(await store.version == 0)
        #expect(lines.values.isEmpty)
    }

    @Test func withoutCatchTheLoggerGetsOneLine() async throws {
        let lines = Recorder<String>()
        let store = makeStore(lines) {
            .single { throw TestError(description: "kaboom") }
        }
        _ = await store.send(.trigger("go"))
        #expect(await settle(store))
        #expect(lines.values.count == 1)
        let line = try #require(lines.values.first)
        #expect(line.contains("errors"))
        #expect(line.contains("kaboom"))
        // The store keeps working.
        #expect(await store.send(.event("after")).state.events == ["after"])
    }

    @Test func cancellationErrorIsSilent() async {
        let lines = Recorder<String>()
        let store = makeStore(lines) {
            .single { throw CancellationError() }
        }
        _ = await store.send(.trigger("go"))
        #expect(await settle(store))
        #expect(lines.values.isEmpty)
        #expect(await store.version == 0)
    }
}
