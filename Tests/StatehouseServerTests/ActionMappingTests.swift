import DemoReducers
import Foundation
import JSON
import StatehouseCore
@testable import Statehouse
@testable import StatehouseServer
import UVLoop
import Testing

/// The Flux Standard Action ↔ Swift enum rule of docs/protocol.md.
struct ActionMappingTests {
    enum Action: Codable, Equatable {
        case increment
        case add(amount: Int)
        case set(Int)
        case rename(String)
        case move(x: Int, y: Int)
        case tag(Tag)
    }

    struct Tag: Codable, Equatable { var label: String }

    enum Plain: String, Codable { case start, stop }

    func decode<A: Decodable & Sendable>(_ json: String, as: A.Type = Action.self) throws -> A {
        // The server's path: one parse with JSONPatch's parser, then the FSA mapping over JSONCoding's decoder.
        try FluxStandardAction<A>.decode(try JSONValue(parsing: json))
    }

    @Test func casesMapFromTypeAndPayload() throws {
        #expect(try decode(#"{"type":"increment"}"#) == Action.increment)
        #expect(try decode(#"{"type":"increment","payload":null,"meta":{"x":1}}"#) == Action.increment)
        #expect(try decode(#"{"type":"add","payload":{"amount":5}}"#) == Action.add(amount: 5))
        #expect(try decode(#"{"type":"set","payload":5}"#) == Action.set(5))
        #expect(try decode(#"{"type":"rename","payload":"bob"}"#) == Action.rename("bob"))
        #expect(try decode(#"{"type":"move","payload":{"x":1,"y":2}}"#) == Action.move(x: 1, y: 2))
        #expect(try decode(#"{"type":"tag","payload":{"label":"a"}}"#) == Action.tag(Tag(label: "a")))
        #expect(try decode(#"{"type":"stop"}"#, as: Plain.self) == .stop)
    }

    @Test func failuresNameTheProblem() throws {
        func message(_ json: String) -> String {
            do {
                _ = try decode(json)
                return "decoded"
            } catch {
                return ActionErrorMessage.apiError(for: error, actionTypes: ["increment", "add"]).message
            }
        }
        #expect(message(#"{"type":"nope"}"#).contains(#"Unknown action type "nope""#))
        #expect(message(#"{"type":"nope"}"#).contains("increment, add"))
        #expect(message(#"{"type":"add"}"#).contains(#""amount""#))
        #expect(message(#"{"type":"add","payload":{"amount":"x"}}"#).contains("an integer"))
        #expect(message(#"{"type":"set","payload":"x"}"#).contains("an integer"))
        #expect(message(#"{}"#).contains(#"no "type""#))
        #expect(ActionErrorMessage.apiError(for: DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "x")), actionTypes: [], body: Array("{".utf8)).code == "invalid_json")
    }
}

struct RouteTests {
    @Test func routesMatchMethodAndPath() throws {
        #expect(try Route.match(method: "GET", path: "/healthz") == .health)
        #expect(try Route.match(method: "HEAD", path: "/stores") == .listStores)
        #expect(try Route.match(method: "GET", path: "/stores/a.b-c_d") == .readStore("a.b-c_d"))
        #expect(try Route.match(method: "GET", path: "/stores/count%65r") == .readStore("counter"))
        #expect(try Route.match(method: "POST", path: "/stores/x/actions") == .postAction("x"))
        #expect(try Route.match(method: "GET", path: "/stores/x/ws") == .webSocket("x"))
        #expect(throws: APIError.self) { try Route.match(method: "GET", path: "/stores/") }
        #expect(throws: APIError.self) { try Route.match(method: "GET", path: "/stores/x/actions/y") }
        #expect(throws: APIError.self) { try Route.match(method: "POST", path: "/stores//actions") }
        #expect(throws: APIError.self) { try Route.match(method: "GET", path: "/storesx") }
        #expect(throws: APIError.self) { try Route.match(method: "GET", path: "stores") }
        #expect(try Route.match(method: "POST", path: "/stores/caf%C3%A9/reset") == .reset("café"))
        #expect(try Route.match(method: "GET", path: "/stores/café/events") == .events("café"))
        do {
            _ = try Route.match(method: "GET", path: "/stores/x/actions")
            Issue.record("expected 405")
        } catch {
            #expect(error.status == 405)
            #expect(error.fields.first?.value == "POST")
        }
    }
}

struct ConfigurationTests {
    @Test func defaultsAndOverrides() throws {
        let config = try ConfigurationLoader.parse(
            Array(#"{"listen":{"port":0},"limits":{"maxBodyBytes":10},"stores":[{"name":"c","reducer":"Counter","state":{"count":3}}]}"#.utf8),
            path: "x.json")
        #expect(config.host == "127.0.0.1")
        #expect(config.port == 0)
        #expect(config.limits.maxBodyBytes == 10)
        #expect(config.limits.maxHeaderBytes == 16384)
        #expect(config.eventLoops == EventLoop.availableParallelism)
        #expect(try ConfigurationLoader.parse(Array(#"{"listen":{"eventLoops":3},"stores":[]}"#.utf8), path: "x").eventLoops == 3)
        #expect(config.storeExecutor == .loop)
        #expect(try ConfigurationLoader.parse(Array(#"{"listen":{"storeExecutor":"pool"},"stores":[]}"#.utf8), path: "x").storeExecutor == .pool)
        #expect(config.stores.first?.name == "c")
        #expect(config.stores.first?.initialState.map { String(decoding: $0, as: UTF8.self) } == #"{"count":3}"#)
        #expect(config.timeouts.writeStallMs == 30_000)
        #expect(try ConfigurationLoader.parse(Array(#"{"timeouts":{"writeStallMs":500},"stores":[]}"#.utf8), path: "x").timeouts.writeStallMs == 500)
    }

    @Test func theShippedConfigLoads() throws {
        let config = try ConfigurationLoader.load(path: packageRoot.appendingPathComponent("Config/statehouse.json").path)
        #expect(config.port == 8080)
        #expect(config.stores.map(\.name) == ["counter", "todos", "search"])
        #expect(config.storage?.path == "data/statehouse.sqlite")  // make run is durable (README, .gitignore)
        #expect(config.storage?.sync == .commit)
        // examples/todo served by `python3 -m http.server 8000` (its README); curl sends no Origin and is unaffected.
        #expect(config.cors?.allows("http://127.0.0.1:8000") == true)
        #expect(config.cors?.allows("https://evil.example") == false)
    }

    @Test(arguments: [
        (#"{"stores":[{"name":"","reducer":"Counter"}]}"#, "stores[0].name"),
        (#"{"stores":[{"reducer":"Counter"}]}"#, "stores[0].name"),
        (#"{"stores":[{"name":"a"}]}"#, "stores[0].reducer"),
        (#"{"stores":{}}"#, "stores"),
        (#"{}"#, "stores"),
        (#"{"listen":{"port":true},"stores":[]}"#, "listen.port"),
        (#"{"listen":{"eventLoops":0},"stores":[]}"#, "listen.eventLoops"),
        (#"{"storage":{"sync":"commit"},"stores":[]}"#, "storage.path"),
        (#"{"storage":{"path":"x.sqlite","sync":"always"},"stores":[]}"#, "storage.sync"),
        (#"{"storage":{"path":"x.sqlite","retainActions":10},"stores":[]}"#, "storage.retainActions"),
        (#"{"storage":{"path":"x.sqlite","fsync":true},"stores":[]}"#, "storage.fsync"),
        (#"{"stores":[{"name":"a","reducer":"Counter","durable":"no"}]}"#, "stores[0].durable"),
        (#"{"listen":{"storeExecutor":"threads"},"stores":[]}"#, "listen.storeExecutor"),
        (#"{"limits":{"maxBodyBytes":0},"stores":[]}"#, "limits.maxBodyBytes"),
        (#"{"timeouts":{"writeStallMs":0},"stores":[]}"#, "timeouts.writeStallMs"),
        (#"[]"#, "JSON object"),
        (#"{"listen":{"port":1.5},"stores":[]}"#, "listen.port"),
        (#"{"listen":{"port":"80"},"stores":[]}"#, "listen.port"),
        (#"{"listen":{"port":1e400},"stores":[]}"#, "listen.port"),
        (#"{"stores":[{"name":"a","reducer":"Counter","durable":1}]}"#, "stores[0].durable"),
        (#"{"cors":{"allowedOrigins":["https://a.example",1]},"stores":[]}"#, "cors.allowedOrigins"),
        (#"{"stores":[}"#, "not valid JSON (unexpected byte at byte 11)"),
    ])
    func errorsNameThePlace(json: String, place: String) {
        do {
            _ = try ConfigurationLoader.parse(Array(json.utf8), path: "f.json")
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.description.hasPrefix("f.json: "))
            #expect(error.description.contains(place))
        }
    }

    @Test func integersAreExactJSONNumbers() throws {
        let config = try ConfigurationLoader.parse(
            Array(#"{"listen":{"port":1e3,"eventLoops":2.0},"stores":[]}"#.utf8), path: "x")
        #expect(config.port == 1000)
        #expect(config.eventLoops == 2)
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.parse(Array(#"{"limits":{"maxBodyBytes":-0e5},"stores":[]}"#.utf8), path: "x")
        }
        // Beyond 2^53 the value is exact (no trip through Double), so an off-by-one past the range is seen.
        let big = try ConfigurationLoader.parse(
            Array(#"{"storage":{"path":"d.sqlite","maxBytes":1125899906842624},"stores":[]}"#.utf8), path: "x")
        #expect(big.storage?.maxBytes == 1 << 50)
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.parse(
                Array(#"{"storage":{"path":"d.sqlite","maxBytes":1125899906842625},"stores":[]}"#.utf8), path: "x")
        }
    }

    @Test func theStateIsWrittenBackAsInTheFile() throws {
        let config = try ConfigurationLoader.parse(
            Array(#"{"stores":[{"name":"t","reducer":"TodoList","state":{"nextID":1.0,"items":[{"text":"a\nb\u0001","id":1e0}]}}]}"#.utf8),
            path: "x")
        #expect(config.stores.first?.initialState.map { String(decoding: $0, as: UTF8.self) }
            == #"{"nextID":1.0,"items":[{"text":"a\nb\u0001","id":1e0}]}"#)
    }

    @Test(arguments: [
        (#"{"stores":[],"stores":[]}"#, "f.json: stores: appears twice; keep one"),
        (#"{"listen":{"port":1,"host":"::1","port":2},"stores":[]}"#, "f.json: listen.port: appears twice; keep one"),
        (#"{"stores":[{"name":"a","reducer":"Counter"},{"name":"b","name":"c","reducer":"Counter"}]}"#,
         "f.json: stores[1].name: appears twice; keep one"),
        (#"{"stores":[{"name":"a","reducer":"Counter","state":{"count":1,"count":2}}]}"#,
         "f.json: stores[0].state.count: appears twice; keep one"),
        (#"{"auth":[{"token":"0123456789abcdef","scopes":["read"],"scopes":["admin"]}],"stores":[]}"#,
         "f.json: auth[0].scopes: appears twice; keep one"),
        // After the repeat the file is broken: the location still says which tokens are indices.
        (#"{"stores":[{"name":"a","name":"b"}"#, "f.json: stores[0].name: appears twice; keep one"),
    ])
    func aRepeatedKeyIsAnErrorAtItsPlace(json: String, message: String) {
        do {
            _ = try ConfigurationLoader.parse(Array(json.utf8), path: "f.json")
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test(arguments: [
        (#"{"items":[{"id":1,"text":"a","done":"no"}],"nextID":2}"#, #"("items.[0].done" must be true or false)"#),
        (#"{"items":[]}"#, #"(missing "nextID")"#),
        (#"{"items":[],"nextID":1.5}"#, #""nextID" is invalid: "#),
        (#"[]"#, "(the state must be an object"),
    ])
    func aStateTheReducerCannotDecodeNamesTheField(state: String, problem: String) throws {
        let config = try ConfigurationLoader.parse(
            Array(#"{"stores":[{"name":"t","reducer":"TodoList","state":\#(state)}]}"#.utf8), path: "f.json")
        do {
            _ = try ReducerCatalog.demo.makeStores(for: config, path: "f.json", executors: [], logger: Logger(level: .error))
            Issue.record("accepted \(state)")
        } catch {
            #expect(error.description.hasPrefix("f.json: stores[0].state: is not a valid TodoList state "))
            #expect(error.description.contains(problem), "\(error.description)")
        }
    }
}
