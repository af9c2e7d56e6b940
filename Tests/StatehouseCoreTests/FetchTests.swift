import Foundation
import StatehouseCore
import StatehouseTestClients
import Testing

struct FetchError: Error, Equatable, Hashable, Codable {
    var reason: String
}

/// A reducer with one fetched field; the operations come from the test.
struct ProfileReducer: Reducer {
    struct State: Equatable, Sendable {
        var profile: DataFetchingState<String, FetchError> = .idle
        var userID = 7
    }

    enum Action: Sendable {
        /// Fetches with the typed operation, cancellable under "profile" (latest wins).
        case load
        /// Fetches with the untyped operation and a `catch:` mapping.
        case loadUntyped
        case profileChanged(DataFetchingState<String, FetchError>)
        /// Sets the field to `.idle` and cancels the fetch.
        case cancel
    }

    var typed: @Sendable () async throws(FetchError) -> String = { "ada" }
    var untyped: @Sendable (Int) async throws -> String = { _ in "ada" }

    func reduce(state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load:
            // A typed-throws function value, as `api.profile` in docs/effects.md.
            return .fetch(&state.profile, then: Action.profileChanged, typed)
                .cancellable("profile", cancelInFlight: true)
        case .loadUntyped:
            return .fetch(&state.profile, then: Action.profileChanged, catch: { FetchError(reason: "\($0)") }) {
                [id = state.userID] in try await untyped(id)
            }
        case .profileChanged(let profile):
            state.profile = profile
            return .none
        case .cancel:
            state.profile = .idle
            return .cancel("profile")
        }
    }
}

@Suite struct FetchTests {
    @Test func loadingThenSuccess() async {
        let release = Gate()
        let store = Store(
            reducer: ProfileReducer(typed: { () async throws(FetchError) -> String in
                await release.wait()
                return "ada"
            }),
            state: .init()
        )
        let seen = Recorder<DataFetchingState<String, FetchError>>()
        _ = await store.observe { seen.append($0.state.profile) }
        let afterLoad = await store.send(.load)
        #expect(afterLoad.state.profile == .loading)
        #expect(afterLoad.version == 1)
        release.open()
        await store.untilIdle()
        #expect(await store.state.profile == .success("ada"))
        #expect(await store.state.profile.value == "ada")
        #expect(seen.values == [.loading, .success("ada")])
    }

    @Test func typedFailure() async {
        let store = Store(
            reducer: ProfileReducer(typed: { () async throws(FetchError) -> String in
                throw FetchError(reason: "offline")
            }),
            state: .init()
        )
        _ = await store.send(.load)
        await store.untilIdle()
        let profile = await store.state.profile
        #expect(profile == .failure(FetchError(reason: "offline")))
        #expect(profile.isFailure)
        #expect(profile.error == FetchError(reason: "offline"))
    }

    @Test func untypedFailureIsMappedByCatch() async {
        let store = Store(
            reducer: ProfileReducer(untyped: { _ in throw TestError(description: "offline") }),
            state: .init()
        )
        #expect(await store.send(.loadUntyped).state.profile == .loading)
        await store.untilIdle()
        #expect(await store.state.profile == .failure(FetchError(reason: "offline")))
    }

    @Test func untypedSuccess() async {
        let store = Store(reducer: ProfileReducer(untyped: { "grace \($0)" }), state: .init())
        _ = await store.send(.loadUntyped)
        await store.untilIdle()
        #expect(await store.state.profile == .success("grace 7"))
    }

    @Test func anOperationThatThrowsCancellationErrorGivesIdle() async {
        let store = Store(
            reducer: ProfileReducer(untyped: { _ in throw CancellationError() }),
            state: .init()
        )
        #expect(await store.send(.loadUntyped).state.profile == .loading)
        await store.untilIdle()
        #expect(await store.state.profile == .idle)
        #expect(await store.version == 2)
    }

    @Test func aFetchCancelledByTheStoreDeliversNothing() async {
        let started = Gate()
        let release = Gate()
        let finished = Gate()
        let store = Store(
            reducer: ProfileReducer(typed: { () async throws(FetchError) -> String in
                started.open()
                await release.wait()
                finished.open()
                return "late"
            }),
            state: .init()
        )
        let seen = Recorder<DataFetchingState<String, FetchError>>()
        _ = await store.observe { seen.append($0.state.profile) }
        _ = await store.send(.load)
        await started.wait()
        #expect(await store.send(.cancel).state.profile == .idle)
        release.open()
        await finished.wait()
        await store.untilIdle()
        #expect(await store.state.profile == .idle)
        #expect(seen.values == [.loading, .idle])
        #expect(await store.runningEffectCount == 0)
    }

    @Test func aNewerFetchCancelsTheOlderOneInFlight() async {
        let calls = Recorder<Int>()
        let gates = [Gate(), Gate()]
        let started = [Gate(), Gate()]
        let store = Store(
            reducer: ProfileReducer(typed: { () async throws(FetchError) -> String in
                let call = calls.values.count
                calls.append(call)
                started[call].open()
                await gates[call].wait()
                return "call \(call)"
            }),
            state: .init()
        )
        _ = await store.send(.load)
        await started[0].wait()
        #expect(await store.send(.load).state.profile == .loading)
        await started[1].wait()
        gates[1].open()
        #expect(await eventually { await store.state.profile == .success("call 1") })
        gates[0].open()
        await store.untilIdle()
        #expect(await store.state.profile == .success("call 1"))
    }
}

@Suite struct DataFetchingStateTests {
    typealias Fetched = DataFetchingState<[Int], FetchError>

    @Test func accessors() {
        let cases: [Fetched] = [.idle, .loading, .success([1]), .failure(FetchError(reason: "x"))]
        #expect(cases.map(\.isIdle) == [true, false, false, false])
        #expect(cases.map(\.isLoading) == [false, true, false, false])
        #expect(cases.map(\.isSuccess) == [false, false, true, false])
        #expect(cases.map(\.isFailure) == [false, false, false, true])
        #expect(cases.map(\.value) == [nil, nil, [1], nil])
        #expect(cases.map(\.error) == [nil, nil, nil, FetchError(reason: "x")])
    }

    @Test func equalityAndHashingUseThePayloads() {
        #expect(Fetched.failure(FetchError(reason: "a")) != .failure(FetchError(reason: "b")))
        #expect(Fetched.success([1]) != .success([2]))
        #expect(Fetched.success([1]) == .success([1]))
        #expect(Fetched.idle != .loading)
        let set: Set<Fetched> = [.idle, .idle, .success([1]), .success([1]), .failure(FetchError(reason: "a"))]
        #expect(set.count == 3)
    }

    @Test func codableRoundTripsEveryCase() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let expected = [
            #"{"status":"idle"}"#,
            #"{"status":"loading"}"#,
            #"{"status":"success","value":[1,2]}"#,
            #"{"error":{"reason":"offline"},"status":"failure"}"#,
        ]
        let cases: [Fetched] = [.idle, .loading, .success([1, 2]), .failure(FetchError(reason: "offline"))]
        for (value, json) in zip(cases, expected) {
            let data = try encoder.encode(value)
            #expect(String(decoding: data, as: UTF8.self) == json)
            #expect(try JSONDecoder().decode(Fetched.self, from: data) == value)
        }
    }

    @Test func decodingAnUnknownStatusOrAMissingPayloadThrows() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Fetched.self, from: Data(#"{"status":"done"}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Fetched.self, from: Data(#"{"status":"success"}"#.utf8))
        }
    }
}

/// The reducer of docs/effects.md, verbatim apart from the stub API, so the documented shapes compile.
private enum DocumentedProfile {
    struct User: Equatable, Codable, Sendable { var name: String }
    struct APIError: Error, Equatable, Codable {
        var message: String
        init(_ error: any Error) { message = "\(error)" }
    }
    struct API: Sendable {
        var me: @Sendable () async throws(APIError) -> User
        var user: @Sendable (Int) async throws -> User
    }
    struct ProfileID: Hashable, Sendable {}

    struct Profile: Reducer {
        struct State: Equatable, Codable, Sendable {
            var userID = 1
            var profile: DataFetchingState<User, APIError> = .idle
        }
        enum Action: Sendable {
            case load, reload, cancel
            case profileChanged(DataFetchingState<User, APIError>)
        }
        let api: API

        func reduce(state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case .load:
                return .fetch(&state.profile, then: Action.profileChanged, api.me)
                    .cancellable(ProfileID(), cancelInFlight: true)
            case .reload:
                return .fetch(&state.profile, then: Action.profileChanged, catch: APIError.init) {
                    [id = state.userID] in try await api.user(id)
                }
                .cancellable(ProfileID(), cancelInFlight: true)
            case .cancel:
                state.profile = .idle
                return .cancel(ProfileID())
            case .profileChanged(let profile):
                state.profile = profile
                return .none
            }
        }
    }
}

@Suite struct DocumentedFetchTests {
    @Test func theDocumentedReducerLoadsAndReloads() async {
        let api = DocumentedProfile.API(
            me: { DocumentedProfile.User(name: "me") },
            user: { id in throw TestError(description: "no user \(id)") }
        )
        let store = Store(reducer: DocumentedProfile.Profile(api: api), state: .init())
        _ = await store.send(.load)
        await store.untilIdle()
        #expect(await store.state.profile == .success(DocumentedProfile.User(name: "me")))
        #expect(await store.send(.reload).state.profile == .loading)
        await store.untilIdle()
        #expect(await store.state.profile.error?.message == "no user 1")
    }
}
