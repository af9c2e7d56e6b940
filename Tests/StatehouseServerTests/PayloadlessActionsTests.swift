import JSON
@testable import Statehouse
@testable import StatehouseServer
import Synchronization
import Testing
import Locking

/// A store decodes an action without payload once per type (``PayloadlessActions``) and reuses the value.
struct PayloadlessActionsTests {
    typealias Action = ActionMappingTests.Action

    func outcome(_ json: String, _ memo: PayloadlessActions<Action>?) -> String {
        do {
            return "\(try FluxStandardAction<Action>.decode(try JSONValue(parsing: json), payloadless: memo))"
        } catch {
            return "error: " + ActionErrorMessage.apiError(for: error, actionTypes: ["increment", "add"]).message
        }
    }

    @Test func theSameActionsAndErrorsWithAndWithoutTheTable() {
        let memo = PayloadlessActions<Action>()
        let inputs = [
            #"{"type":"increment"}"#, #"{"type":"increment","payload":null}"#, #"{"type":"increment","payload":{}}"#,
            #"{"type":"add"}"#, #"{"type":"add","payload":null}"#, #"{"type":"add","payload":{"amount":2}}"#,
            #"{"type":"set"}"#, #"{"type":"nope"}"#, #"{"type":"increment","payload":5}"#, #"{}"#, #"{"type":1}"#,
        ]
        for round in 1...2 {  // the first round fills the table, the second reads it
            for json in inputs {
                #expect(outcome(json, memo) == outcome(json, nil), "round \(round): \(json)")
            }
        }
    }

    /// Counts its decodes; accepts any type name, so the table's bound shows.
    struct Counted: Decodable, Sendable {
        static let decodes = Locked(0)
        let name: String
        init(from decoder: any Decoder) throws {
            name = try decoder.singleValueContainer().decode(String.self)
            Self.decodes.withLock { $0 += 1 }
        }
    }

    @Test func aKeptTypeIsNotDecodedAgainAndTheTableIsBounded() throws {
        let memo = PayloadlessActions<Counted>()
        func decode(_ type: String) throws -> Counted {
            try FluxStandardAction<Counted>.decode(.object(["type": .string(type)]), payloadless: memo)
        }
        let before = Counted.decodes.withLock { $0 }
        #expect(try decode("a").name == "a")
        #expect(try decode("a").name == "a")
        #expect(Counted.decodes.withLock { $0 } == before + 1)
        let capacity = PayloadlessActions<Counted>.capacity
        for index in 0..<capacity { _ = try decode("t\(index)") }  // "a" and capacity - 1 of these are kept
        let full = Counted.decodes.withLock { $0 }
        #expect(try decode("t\(capacity - 1)").name == "t\(capacity - 1)")  // not kept: decoded again
        #expect(try decode("t0").name == "t0")  // kept
        #expect(Counted.decodes.withLock { $0 } == full + 1)
    }
}
