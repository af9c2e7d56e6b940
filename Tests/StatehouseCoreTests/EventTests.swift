import StatehouseCore
import StatehouseTestClients
import Testing

/// A reducer with out-of-band events.
struct Announcer: Reducer {
    enum Event: Sendable, Equatable {
        case saved(Int)
    }

    enum Action: Sendable {
        /// count += 1, then emit `.saved` and bump (top-level merge).
        case save
        /// count += 1, then a concat: bump, emit, bump.
        case saveLater
        /// emits a value that is not an `Event`.
        case emitWrongType
        case bump
    }

    func reduce(state: inout Int, action: Action) -> Effect<Action> {
        switch action {
        case .save:
            state += 1
            return .merge(.emit(Event.saved(state)), .just(.bump))
        case .saveLater:
            state += 1
            return .concat(.single { .bump }, .emit(Event.saved(state)), .just(.bump))
        case .emitWrongType:
            return .emit("not an event")
        case .bump:
            state += 1
            return .none
        }
    }
}

@Suite struct EventTests {
    /// Records state versions and events into one ordered stream.
    private func record(_ store: Store<Announcer>) async -> Recorder<String> {
        let log = Recorder<String>()
        _ = await store.observe { log.append("v\($0.version)") }
        _ = await store.observeEvents { log.append("\($0)") }
        return log
    }

    @Test func topLevelEmitComesBetweenItsReduceAndTheNext() async {
        let store = Store(reducer: Announcer(), state: 0)
        let log = await record(store)
        _ = await store.send(.save)
        await store.untilIdle()
        #expect(log.values == ["v1", "saved(1)", "v2"])
        #expect(await store.version == 2)
    }

    @Test func nestedEmitIsDeliveredWhenTheConcatReachesIt() async {
        let store = Store(reducer: Announcer(), state: 0)
        let log = await record(store)
        _ = await store.send(.saveLater)
        await store.untilIdle()
        #expect(log.values == ["v1", "v2", "saved(1)", "v3"])
        #expect(await store.version == 3)
    }

    @Test func eventsDoNotBumpTheVersion() async {
        let store = Store(
            reducer: Script(script: { _ in .emit("ignored") }),
            state: .init(),
            logger: { _ in }
        )
        _ = await store.send(.trigger("go"))
        _ = await store.send(.trigger("go"))
        #expect(await store.version == 0)
    }

    @Test func wrongTypeIsLoggedNotDelivered() async {
        let lines = Recorder<String>()
        let store = Store(reducer: Announcer(), state: 0, name: "ann", logger: { lines.append($0) })
        let events = Recorder<Announcer.Event>()
        _ = await store.observeEvents { events.append($0) }
        _ = await store.send(.emitWrongType)
        #expect(events.values.isEmpty)
        #expect(lines.values.count == 1)
        #expect(lines.values.first?.contains("store ann") == true)
    }

    @Test func removedEventObserverIsNotCalled() async {
        let store = Store(reducer: Announcer(), state: 0)
        let events = Recorder<Announcer.Event>()
        let token = await store.observeEvents { events.append($0) }
        _ = await store.send(.save)
        await store.removeObserver(token)
        _ = await store.send(.save)
        #expect(events.values == [.saved(1)])
    }
}
