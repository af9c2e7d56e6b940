import Locking
import StatehouseCore
import StatehouseTestClients
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
        let settled = try await store.sendAndSettle(.twice, timeout: settleBound)
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
    /// `reset(.keepingState)` re-binds (OneWay's `reset()`, "if there are changes in publishers or streams that
    /// necessitate rebinding"), keeping the state. A cancelled `for await` ends an `AsyncStream` for good, so the
    /// feed hands each subscription a new stream.
    @Test func externalStates() async {
        let feed = RebindableFeed()
        let store = Store(reducer: FeedReducer(feed: feed), state: "")
        feed.send("from the feed")
        await store.expect(\.self, "from the feed")
        let afterReset = await store.reset(.keepingState)
        #expect(afterReset.state == "from the feed")
        await feed.subscribed(2)  // the new bind() is listening (the old stream may not have ended yet)
        feed.send("after the rebind")
        await store.expect(\.self, "after the rebind")
        #expect(feed.subscriptions == 2)
    }
}

/// An outside feed that gives each subscriber a new stream; values sent while no live subscriber exists wait for the
/// next one.
final class RebindableFeed: Sendable {
    private struct Contents {
        var continuation: AsyncStream<String>.Continuation?
        var pending: [String] = []
        var subscriptions = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let contents = Locked(Contents())

    func subscribe() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let ready = contents.withLock { contents in
            contents.subscriptions += 1
            for value in contents.pending { continuation.yield(value) }
            contents.pending = []
            contents.continuation = continuation
            let count = contents.subscriptions
            defer { contents.waiters.removeAll { $0.count <= count } }
            return contents.waiters.filter { $0.count <= count }.map(\.continuation)
        }
        for waiter in ready { waiter.resume() }
        return stream
    }

    /// Returns once `count` subscriptions have been made.
    func subscribed(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = contents.withLock { contents in
                if contents.subscriptions < count { contents.waiters.append((count, continuation)) }
                return contents.subscriptions >= count
            }
            if reached { continuation.resume() }
        }
    }

    func send(_ value: String) {
        contents.withLock { contents in
            if case .enqueued = contents.continuation?.yield(value) { return }
            contents.pending.append(value)
        }
    }

    var subscriptions: Int {
        contents.withLock { $0.subscriptions }
    }
}

struct FeedReducer: Reducer {
    let feed: RebindableFeed

    func reduce(state: inout String, action: String) -> Effect<String> {
        state = action
        return .none
    }

    func bind() -> Effect<String> {
        let feed = feed
        return .sequence { send in
            for await value in feed.subscribe() { await send(value) }
        }
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
