import StatehouseCore
import StatehouseTestClients
import StatehouseTesting
import Testing

/// GoodReactor 2.5's README flow and the scenarios of its `ReactorTests`, on a Statehouse `Store`.
///
/// The mapping (docs/migrating.md, *From GoodReactor*): `Action` and `Mutation` become cases of one `Action` (a
/// mutation is an action an effect sends); `run(event) { … }` becomes an effect returned from `reduce`;
/// `Destination` becomes an out-of-band `Event` the reducer emits (observed with `observeEvents`);
/// `transform()` + `subscribe(to:map:)` become `bind()`; `await send(action:)`, which waits for every `run`, is
/// `sendAndSettle`; `fetch` is `Effect.fetch` into a `DataFetchingState`.
@Suite struct GoodReactorReadmeTests {
    /// The README's login: the action runs the networking call, its result comes back as a mutation, and the
    /// reactor navigates to the home screen.
    @Test func loginFlow() async throws {
        let services = LoginServices()
        let store = Store(reducer: LoginReducer(services: services), state: LoginReducer.State())
        let destinations = Recorder<LoginReducer.Destination>()
        _ = await store.observeEvents { destinations.append($0) }

        await store.send(.setUsername("ada"))
        let settled = try await store.sendAndSettle(.login(username: "ada", password: "secret"), timeout: settleBound)

        #expect(settled.state.credentials == LoginReducer.Credentials(token: "token-for-ada"))
        #expect(destinations.values == [.homeScreen])
    }

    /// The README's `transform()` subscribing to an outside timer, started by `start()` from a view's `.task`. In
    /// Statehouse the subscription is `bind()` and runs without `start()`; calling `start()` anyway (as a SwiftUI
    /// `.task` does again and again) is harmless: one subscription (GoodReactor's `testReactorStartIdempotency`).
    @Test func externalTimerSubscription() async {
        let services = LoginServices()
        let store = Store(reducer: LoginReducer(services: services), state: LoginReducer.State())
        for _ in 0..<4 { await store.start() }
        services.ticks.yield(1)
        services.ticks.yield(2)
        await store.expect(\.seconds, 2)
        #expect(await store.runningEffectCount == 1)  // one subscription, not four
    }

    /// `fetch(event, \.profile) { … }`: loading, then success or failure.
    @Test func fetchSetsLoadingThenResult() async throws {
        let services = LoginServices()
        let store = Store(reducer: LoginReducer(services: services), state: LoginReducer.State())
        let loading = await store.send(.loadProfile("ada"))
        #expect(loading.state.profile.isLoading)
        // Not `untilIdle()`: this store's bind() subscription never ends, so the store is never idle.
        await store.expect(\.profile, .success("Ada Lovelace"))

        let failing = try await store.sendAndSettle(.loadProfile("nobody"), timeout: settleBound)
        #expect(failing.state.profile == .failure(.notFound))
    }

    /// `testSendAction`: the reduce is synchronous with the send, and the initial state stays what it was.
    @Test func sendReducesAndKeepsInitialState() async {
        let store = Store(reducer: LoginReducer(services: LoginServices()), state: LoginReducer.State())
        let after = await store.send(.setUsername("grace"))
        #expect(after.state.username == "grace")
        #expect(store.initialState.username == "")
    }

    /// `testMultipleRuns` / `testHundredRunsInForLoop` / `testTwiceHundredRuns`: an action that starts many runs,
    /// each of which may start more through the actions it sends; `await send(action:)` in GoodReactor, and
    /// `sendAndSettle` here, returns after all of them.
    @Test func sendAndSettleWaitsForEveryRun() async throws {
        let store = Store(reducer: RunsReducer(), state: 0)
        let five = try await store.sendAndSettle(.startRuns(5, thenEach: 0), timeout: settleBound)
        #expect(five.state == 5)
        let twiceHundred = try await store.sendAndSettle(.startRuns(100, thenEach: 1), timeout: settleBound)
        #expect(twiceHundred.state == 5 + 200)
    }

    /// `testDebounce`: ten sends 100 ms apart with a 500 ms debounce add exactly one, after the quiet period (on a
    /// test clock here; GoodReactor's test sleeps for real).
    @Test func debounce() async {
        let clock = TestClock()
        let store = Store(reducer: RunsReducer(), state: 0, clock: clock)
        for _ in 0..<10 {
            await store.send(.debouncedIncrement)
            await clock.advance(by: .milliseconds(100))
        }
        #expect(await store.state == 0)
        await clock.advance(by: .milliseconds(500))
        await store.expect(\.self, 1)
        await store.untilIdle()
        #expect(await store.state == 1)
    }
}

/// The README's `ViewModel` as a reducer.
struct LoginReducer: Reducer {
    struct Credentials: Equatable, Sendable {
        var token: String
    }

    enum ProfileError: Error, Equatable, Sendable {
        case notFound
    }

    enum Action: Sendable {
        // GoodReactor's Action
        case login(username: String, password: String)
        case setUsername(String)
        case loadProfile(String)
        // GoodReactor's Mutation: what effects send back
        case didReceiveAuthResponse(Credentials)
        case didChangeTime(seconds: Int)
        case profileLoaded(DataFetchingState<String, ProfileError>)
    }

    /// GoodReactor's `Destination`, delivered as an event.
    enum Destination: Equatable, Sendable {
        case homeScreen
        case errorAlert
    }

    typealias Event = Destination

    struct State: Equatable, Sendable {
        var username = ""
        var password = ""
        var credentials: Credentials?
        var seconds = 0
        var profile: DataFetchingState<String, ProfileError> = .idle
    }

    let services: LoginServices

    func reduce(state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .login(let username, let password):
            state.username = username
            state.password = password
            let services = services
            return .single { .didReceiveAuthResponse(await services.login(username, password)) }
        case .setUsername(let username):
            state.username = username
            return .none
        case .loadProfile(let username):
            let services = services
            return .fetch(&state.profile, then: Action.profileLoaded) { () async throws(ProfileError) -> String in
                try await services.profile(username)
            }
        case .didReceiveAuthResponse(let credentials):
            state.credentials = credentials
            return .emit(Destination.homeScreen)
        case .didChangeTime(let seconds):
            state.seconds = seconds
            return .none
        case .profileLoaded(let result):
            state.profile = result
            return .none
        }
    }

    /// GoodReactor's `transform()` with `subscribe { timePublisher } map: { .didChangeTime(seconds: $0) }`.
    func bind() -> Effect<Action> {
        let ticks = services.tickStream
        return .sequence { send in
            for await seconds in ticks { await send(.didChangeTime(seconds: seconds)) }
        }
    }
}

/// The networking and the outside timer of the README, in memory.
final class LoginServices: Sendable {
    let tickStream: AsyncStream<Int>
    let ticks: AsyncStream<Int>.Continuation

    init() {
        (tickStream, ticks) = AsyncStream.makeStream(of: Int.self)
    }

    func login(_ username: String, _ password: String) async -> LoginReducer.Credentials {
        await Task.yield()
        return LoginReducer.Credentials(token: "token-for-\(username)")
    }

    func profile(_ username: String) async throws(LoginReducer.ProfileError) -> String {
        await Task.yield()
        guard username == "ada" else { throw .notFound }
        return "Ada Lovelace"
    }
}

/// GoodReactor's `ReactorTests` counter: runs that add one each, and a debounced add.
struct RunsReducer: Reducer {
    enum Action: Sendable {
        /// Starts `count` runs; each sends `.add(1)`, and then `.startRuns(thenEach, thenEach: 0)`.
        case startRuns(Int, thenEach: Int)
        case add(Int)
        case debouncedIncrement
    }

    enum DebounceID: Hashable, Sendable {
        case increment
    }

    func reduce(state: inout Int, action: Action) -> Effect<Action> {
        switch action {
        case .startRuns(let count, let more):
            guard count > 0 else { return .none }
            return .merge((0..<count).map { _ in
                Effect.sequence { send in
                    await Task.yield()
                    await send(.add(1))
                    if more > 0 { await send(.startRuns(more, thenEach: 0)) }
                }
            })
        case .add(let amount):
            state += amount
            return .none
        case .debouncedIncrement:
            return Effect.just(.add(1)).debounce(DebounceID.increment, for: .milliseconds(500))
        }
    }
}
