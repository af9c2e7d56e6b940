import StatehouseCore
import StatehouseTestClients
import Testing

/// `StoreLogging`: the lines a store writes to its injected logger about actions and states.
@Suite struct LoggingTests {
    @Test func nothingIsLoggedByDefault() async {
        let lines = Recorder<String>()
        let store = Store(reducer: Tally(), state: .init(), name: "quiet", logger: { lines.append($0) })
        _ = await store.send(.increment)
        _ = await store.send(.set(0))
        #expect(await store.logging == [])
        #expect(lines.values.isEmpty)
    }

    @Test func actionsGivesOneLinePerActionWithTheVersionAfterIt() async {
        let lines = Recorder<String>()
        let store = Store(
            reducer: Tally(), state: .init(), name: "tally", logger: { lines.append($0) }, logging: .actions)
        _ = await store.send(.increment)
        _ = await store.send(.set(0))  // leaves the state as it was
        _ = await store.send(.set(7))
        #expect(lines.values == [
            "store tally: action increment → version 1",
            "store tally: action set(0) → version 1 (state unchanged)",
            "store tally: action set(7) → version 2",
        ])
    }

    @Test func stateGivesOneLinePerNewVersion() async {
        let lines = Recorder<String>()
        let store = Store(reducer: Tally(), state: .init(), name: "tally", logger: { lines.append($0) }, logging: .state)
        _ = await store.send(.increment)
        _ = await store.send(.set(0))  // no new version: no line
        #expect(lines.values == ["store tally: state at version 1: State(count: 1, last: 0, outOfOrder: 0, value: 0)"])
    }

    @Test func allGivesTheActionLineThenTheStateLine() async {
        let lines = Recorder<String>()
        let store = Store(reducer: Tally(), state: .init(), name: "tally", logger: { lines.append($0) }, logging: .all)
        _ = await store.send(.set(3))
        #expect(lines.values == [
            "store tally: action set(3) → version 1",
            "store tally: state at version 1: State(count: 0, last: 0, outOfOrder: 0, value: 3)",
        ])
    }

    @Test func actionsFromEffectsAreMarked() async throws {
        let lines = Recorder<String>()
        let store = Store(
            reducer: Script(script: { $0 == .trigger("go") ? .just(.tick) : .none }), state: .init(), name: "fx",
            logger: { lines.append($0) }, logging: .actions)
        _ = try await store.sendAndSettle(.trigger("go"), timeout: .seconds(30))
        #expect(lines.values == [
            #"store fx: action trigger("go") → version 0 (state unchanged)"#,
            "store fx: action tick (from an effect) → version 1",
        ])
    }

    @Test func droppedActionsAreLoggedWithTheReason() async {
        let lines = Recorder<String>()
        // The mailbox holds [start, cancel]; reducing `start` queues `produced` behind the cancel, which drops it.
        let store = Store(
            reducer: Script(script: { action in
                switch action {
                case .trigger("start"): .just(.event("produced")).cancellable("x")
                case .trigger("cancel"): .cancel("x")
                default: .none
                }
            }),
            state: .init(), name: "fx", logger: { lines.append($0) }, logging: .actions)
        store.enqueue(.trigger("start"))
        store.enqueue(.trigger("cancel"))
        _ = await store.send(.trigger("probe"))
        #expect(lines.values.contains(
            #"store fx: action event("produced") (from an effect) dropped at version 0 (its effect was cancelled or the store reset)"#))

        // After a stop every action is dropped; its completion gets nil.
        let stopped = await withCheckedContinuation { continuation in
            store.enqueueStop()
            store.enqueue(.tick, handledOrDropped: { continuation.resume(returning: $0 == nil) })
        }
        #expect(stopped)
        #expect(lines.values.last == "store fx: action tick dropped at version 0 (the store is stopped)")
    }

    @Test func resetIsLoggedUnderActionsAndItsStateUnderState() async {
        let lines = Recorder<String>()
        let store = Store(reducer: Tally(), state: .init(), name: "tally", logger: { lines.append($0) })
        _ = await store.send(.increment)
        await store.setLogging(.all)
        await store.reset(.restoringInitialState)
        await store.reset(.restoringInitialState)  // already at the initial state: no new version
        _ = await store.send(.increment)
        await store.reset(.keepingState)
        #expect(lines.values == [
            "store tally: reset → version 2",
            "store tally: state at version 2: State(count: 0, last: 0, outOfOrder: 0, value: 0)",
            "store tally: reset → version 2 (state unchanged)",
            "store tally: action increment → version 3",
            "store tally: state at version 3: State(count: 1, last: 0, outOfOrder: 0, value: 0)",
            "store tally: reset keeping state → version 3 (state unchanged)",
        ])
    }

    /// A logger with levels is told what each line is about: the lines `logging` asks for are records (the server
    /// writes them at `info`), an effect error is a problem (`warning`).
    @Test func aLineLoggerIsToldRecordsFromProblems() async {
        let lines = Recorder<String>()
        let kinds = Recorder<StoreLogLineKind>()
        let store = Store(
            reducer: Script(script: { action in
                guard action == .trigger("fail") else { return .none }
                return Effect.single { throw TestError(description: "boom") }.cancellable("later")
            }),
            state: .init(), name: "lines",
            lineLogger: { line, kind in
                lines.append(line)
                kinds.append(kind)
            },
            logging: .all)
        _ = await store.send(.event("seen"))
        await store.reset(.keepingState)
        _ = await store.send(.trigger("fail"))
        await store.untilIdle()
        #expect(lines.values == [
            "store lines: action event(\"seen\") → version 1",
            "store lines: state at version 1: State(events: [\"seen\"], ticks: 0)",
            "store lines: reset keeping state → version 1 (state unchanged)",
            "store lines: action trigger(\"fail\") → version 1 (state unchanged)",
            "store lines: effect later failed: boom",
        ])
        #expect(kinds.values == [.record, .record, .record, .record, .problem])
    }

    @Test func setLoggingAndDebugChangeItFromTheNextAction() async {
        let lines = Recorder<String>()
        let store = Store(reducer: Tally(), state: .init(), name: "tally", logger: { lines.append($0) })
        _ = await store.send(.increment)
        await store.setLogging(.actions)
        #expect(await store.logging == .actions)
        _ = await store.send(.increment)
        await store.debug([])
        _ = await store.send(.increment)
        await store.debug(.state)
        _ = await store.send(.set(1))
        #expect(lines.values == [
            "store tally: action increment → version 2",
            "store tally: state at version 4: State(count: 3, last: 0, outOfOrder: 0, value: 1)",
        ])
    }

    @Test func aLongStateIsCutAtTheBound() async throws {
        struct Big: Reducer {
            struct State: Equatable, Sendable { var text = "" }
            enum Action: Sendable { case fill(Int) }
            func reduce(state: inout State, action: Action) -> Effect<Action> {
                if case .fill(let count) = action { state.text = String(repeating: "é", count: count) }
                return .none
            }
        }
        let lines = Recorder<String>()
        let store = Store(reducer: Big(), state: .init(), name: "big", logger: { lines.append($0) }, logging: .state)
        let full = String(describing: await store.send(.fill(10_000)).state)  // `State(text: "éé…")`: 20,000 bytes of é
        let line = try #require(lines.values.first)
        let prefix = "store big: state at version 1: "
        let suffix = "… (\(full.utf8.count) bytes in all)"
        #expect(line.hasPrefix(prefix))
        #expect(line.hasSuffix(suffix))
        let description = line.dropFirst(prefix.count).dropLast(suffix.count)
        #expect(description.utf8.count <= StoreLogging.maxDescriptionBytes)
        #expect(description.utf8.count > StoreLogging.maxDescriptionBytes - 2)  // cut between two-byte scalars
        #expect(description.hasPrefix(#"State(text: "éé"#))
    }

    @Test func aDescriptionStaysOnOneLine() async {
        struct Lines: Reducer {
            typealias State = String
            enum Action: Sendable { case set(String) }
            func reduce(state: inout State, action: Action) -> Effect<Action> {
                if case .set(let text) = action { state = text }
                return .none
            }
        }
        let lines = Recorder<String>()
        let store = Store(reducer: Lines(), state: "", name: "text", logger: { lines.append($0) }, logging: .state)
        _ = await store.send(.set("one\ntwo\tthree\u{7}"))
        #expect(lines.values == [#"store text: state at version 1: one\ntwo\tthree\u{7}"#])
    }

    @Test func optionNamesRoundTrip() {
        #expect(StoreLogging.all.names == ["actions", "state"])
        #expect(StoreLogging(name: "actions") == .actions)
        #expect(StoreLogging(name: "state") == .state)
        #expect(StoreLogging(name: "states") == nil)
        #expect(StoreLogging().names.isEmpty)
    }
}
