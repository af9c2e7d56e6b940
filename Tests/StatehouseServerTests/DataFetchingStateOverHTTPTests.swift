import Foundation
import Statehouse
import StatehouseServer
import StatehouseTestClients
import Testing

/// A servable reducer whose state holds a `DataFetchingState`, filled by `Effect.fetch`.
///
/// `load` (payload: a name) fetches `"hello <name>"`, or fails for an empty name; `profileChanged` (payload: a
/// `DataFetchingState` as JSON) stores its payload.
struct ProfileFetch: ServableReducer {
    struct Failure: Error, Codable, Equatable {
        var message: String
    }

    struct State: Codable, Equatable, Sendable {
        var profile: DataFetchingState<String, Failure> = .idle
    }

    enum Action: Codable, Sendable {
        case load(String)
        case profileChanged(DataFetchingState<String, Failure>)
    }

    static let initialState = State()
    static let actionTypes = ["load", "profileChanged"]

    func reduce(state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load(let name):
            return .fetch(&state.profile, then: Action.profileChanged) { () async throws(Failure) -> String in
                if name.isEmpty { throw Failure(message: "a name is required") }
                return "hello \(name)"
            }
        case .profileChanged(let profile):
            state.profile = profile
            return .none
        }
    }
}

extension ServerTests {
    /// A served state holding a `DataFetchingState`: its JSON in answers, its decoding from actions and configuration.
    @Suite struct DataFetchingStateOverHTTPTests {
        @Test func theFieldGoesOverTheWireAsStatusValueAndError() async throws {
            let configuration = ServerConfiguration(
                host: "127.0.0.1", port: 0,
                stores: [
                    .init(name: "profile", reducer: "ProfileFetch"),
                    .init(
                        name: "configured", reducer: "ProfileFetch",
                        initialState: Array(#"{"profile":{"status":"failure","error":{"message":"stale"}}}"#.utf8)),
                ])
            let (logger, path) = TestLogs.logger()
            let server = try Server(
                configuration: configuration, catalog: ReducerCatalog().registering(ProfileFetch.self), logger: logger)
            let port = UInt16(try server.start())
            defer { server.shutdown() }
            try await TestLogs.printingLog(path) {
                let client = try TestHTTPClient(port: port)
                defer { client.close() }
                let settle = "/stores/profile/actions?wait=settled&timeout_ms=5000"

                let loaded = try client.request("POST", settle, body: #"{"type":"load","payload":"ada"}"#)
                #expect(loaded.bodyText == #"{"store":"profile","version":2,"state":{"profile":{"status":"success","value":"hello ada"}}}"#)

                let failed = try client.request("POST", settle, body: #"{"type":"load","payload":""}"#)
                #expect(
                    failed.bodyText
                        == #"{"store":"profile","version":4,"state":{"profile":{"error":{"message":"a name is required"},"status":"failure"}}}"#
                )

                let idle = try client.request(
                    "POST", "/stores/profile/actions", body: #"{"type":"profileChanged","payload":{"status":"idle"}}"#)
                #expect(idle.bodyText == #"{"store":"profile","version":5,"state":{"profile":{"status":"idle"}}}"#)

                // Answered right after the reduce: the fetch has not delivered yet.
                let loading = try client.request("POST", "/stores/profile/actions", body: #"{"type":"load","payload":"bo"}"#)
                #expect(loading.bodyText == #"{"store":"profile","version":6,"state":{"profile":{"status":"loading"}}}"#)

                let unknown = try client.request(
                    "POST", "/stores/profile/actions", body: #"{"type":"profileChanged","payload":{"status":"done"}}"#)
                #expect(unknown.status == 400)
                let error = try #require(try unknown.json()["error"] as? [String: Any])
                #expect(error["code"] as? String == "invalid_action")
                #expect(
                    (error["message"] as? String)?.hasPrefix(
                        #"The payload field "status" is invalid: "done" is not a status; use idle, loading, success or failure."#)
                        == true)

                let configured = try client.request("GET", "/stores/configured")
                #expect(configured.bodyText.contains(#""state":{"profile":{"error":{"message":"stale"},"status":"failure"}}"#))
            }
        }
    }
}
