import StatehouseCore
import StatehouseTesting
import Testing

/// The examples of OneWay's README, in Statehouse spelling, each checked.
@Suite struct OneWayReadmeTests {
    /// "Implementing a Reducer" and "Sending Actions". OneWay's README prints `2` right after `await send(.twice)`,
    /// but OneWay's `send` does not wait for the effects `.twice` starts (seeds.md §1.2), so that print is a race.
    /// Statehouse says which wait you mean: `send` returns after this action's reduce, `sendAndSettle` after
    /// everything it started.
    @Test func sendingActions() async throws {
        let store = Store(reducer: CountingReducer(), state: CountingReducer.State(number: 0))
        await store.send(.increment)
        await store.send(.decrement)
        let settled = try await store.sendAndSettle(.twice, timeout: .seconds(10))
        #expect(settled.state.number == 2)
        #expect(settled.state.isLoading == false)
    }

    /// "Observing States": `number <- 10, 10, 20, 20` prints 10, 20 (equal states are not emitted).
    @Test func observingStates() async {
        let store = Store(reducer: CountingReducer(), state: CountingReducer.State(number: 0))
        let states = await store.states(bufferingPolicy: .unbounded)
        for number in [10, 10, 20, 20] { await store.send(.set(number)) }
        var printed: [Int] = []
        for await snapshot in states {
            printed.append(snapshot.state.number)
            if printed.last == 20 { break }
        }
        #expect(printed == [0, 10, 20])  // Statehouse's stream starts with the current state (0 here)
    }

    /// "Of course, you can observe specific properties only": `states(\.number)`, deduplicated per property (OneWay
    /// needed AsyncAlgorithms' `removeDuplicates()` for that when another property changed).
    @Test func observingOneProperty() async {
        let store = Store(reducer: CountingReducer(), state: CountingReducer.State(number: 0))
        let numbers = await store.states(\.number, bufferingPolicy: .unbounded)
        await store.send(.set(10))
        await store.send(.setText("a"))
        await store.send(.setText("b"))
        await store.send(.set(10))
        await store.send(.setText("c"))
        await store.send(.set(20))
        var printed: [Int] = []
        for await number in numbers {
            printed.append(number)
            if number == 20 { break }
        }
        #expect(printed == [0, 10, 20])
    }

    /// `@Sensitive` (OneWay 2) / `@Triggered` (OneWay 3): every write is a change, so 10, 10, 20, 20 prints all four.
    @Test func triggeredEmitsEqualWrites() async {
        let store = Store(reducer: TriggeredReducer(), state: TriggeredReducer.State())
        let states = await store.states(bufferingPolicy: .unbounded)
        for number in [10, 10, 20, 20] { await store.send(number) }
        var printed: [Int] = []
        for await snapshot in states.dropFirst() {
            printed.append(snapshot.state.number)
            if printed.count == 4 { break }
        }
        #expect(printed == [10, 10, 20, 20])
    }

    /// "Cancelling Effects": a request made `cancellable` and cancelled by id never answers.
    @Test func cancellingEffects() async {
        let api = ControlledAPI()
        let store = Store(reducer: RequestReducer(api: api), state: RequestReducer.State())
        await store.send(.request)
        await api.started.wait()
        await store.send(.cancel)
        api.answer.open()
        await store.untilIdle()
        #expect(await store.state.response == nil)
        #expect(await store.runningEffectCount == 0)
    }

    /// "External States": `bind()` subscribes to outside feeds and runs without a call to `start()`;
    /// `reset(.keepingState)` re-binds (OneWay's `reset()`), keeping the state.
    @Test func externalStates() async {
        let feeds = BindFeeds()
        let store = Store(reducer: BindTestReducer(feeds: feeds), state: .init(text: ""))
        feeds.text.yield("from the feed")
        await store.expect(\.text, "from the feed")
        let afterReset = await store.reset(.keepingState)
        #expect(afterReset.state.text == "from the feed")
        feeds.number.yield(7)
        await store.expect(\.text, "7")
    }
}

/// The README's `CountingReducer`, plus `set`/`setText` to drive the observing examples.
struct CountingReducer: Reducer {
    enum Action: Sendable {
        case increment
        case decrement
        case twice
        case setIsLoading(Bool)
        case set(Int)
        case setText(String)
    }

    struct State: Sendable, Equatable {
        var number: Int
        var isLoading = false
        var text = ""
    }

    func reduce(state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment:
            state.number += 1
            return .none
        case .decrement:
            state.number -= 1
            return .none
        case .twice:
            return .concat(
                .just(.setIsLoading(true)),
                .merge(.just(.increment), .just(.increment)),
                .just(.setIsLoading(false))
            )
        case .setIsLoading(let isLoading):
            state.isLoading = isLoading
            return .none
        case .set(let number):
            state.number = number
            return .none
        case .setText(let text):
            state.text = text
            return .none
        }
    }
}

struct TriggeredReducer: Reducer {
    struct State: Sendable, Equatable {
        @Triggered var number = 0
    }

    func reduce(state: inout State, action: Int) -> Effect<Int> {
        state.number = action
        return .none
    }
}

/// An API whose one request starts, then answers only when the test opens `answer`.
final class ControlledAPI: Sendable {
    let started = Gate()
    let answer = Gate()

    func result() async -> String {
        started.open()
        await answer.wait()
        return "answer"
    }
}

struct RequestReducer: Reducer {
    enum Action: Sendable {
        case request
        case response(String)
        case cancel
    }

    struct State: Sendable, Equatable {
        var response: String?
    }

    enum EffectID: Hashable, Sendable {
        case request
    }

    let api: ControlledAPI

    func reduce(state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .request:
            let api = api
            return Effect.single { .response(await api.result()) }.cancellable(EffectID.request)
        case .response(let text):
            state.response = text
            return .none
        case .cancel:
            return .cancel(EffectID.request)
        }
    }
}
