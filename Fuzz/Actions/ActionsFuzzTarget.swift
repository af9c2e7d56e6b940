// libFuzzer target for how reducers' actions and states are read and written: the Flux Standard Action mapping
// (Statehouse: `FluxStandardAction`, `FluxStandardActionEncoding`) and `JSONValueDecoder` / `JSONBytesEncoder`
// (JSONCoding), for the demo reducers' types and for `Probe`, a type with every shape `Codable` synthesizes.
// Linked with the DemoReducers module and its dependencies by scripts/fuzz.
//
// Input: byte 0 picks the mode (its value mod 3), the rest is a JSON text; texts that `JSONValue` refuses, or that
// repeat a key (a documented difference from Foundation), are skipped.
// - 0, differential against Foundation's `JSONDecoder` (which `JSONValueDecoder` promises to match): both decode
//   `Probe`, each demo State and a few scalar types (unless the text holds a zero written with an exponent, the
//   other documented difference) to the same value, or fail with the same error kind and coding
//   path (dataCorrupted paths are not compared: Foundation reports number conversions without one; for types
//   holding dictionaries only success and the value are compared: Foundation visits entries in hash order).
// - 1, an action: the FSA is decoded by the server's path (`FluxStandardAction.decode` from a parsed value, with and
//   without the payloadless cache) and by `Decodable` (`JSONValueDecoder` over `FluxStandardAction<Action>`), for
//   `Probe.Action` and every demo Action: all three agree; a decoded action written back as an FSA decodes to
//   the same action.
// - 2, a state: what decodes encodes with `JSONBytesEncoder` to JSON equal (as a value) to Foundation's
//   `JSONEncoder` output (sorted keys), and that JSON decodes back to an equal state.

import Foundation
@testable import DemoReducers
@testable import JSON
@testable import JSONCoding
@testable import Statehouse

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzActions(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let text = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    guard let value = try? JSONValue(parsing: text, rejectingDuplicateKeys: true) else { return 0 }
    switch data[0] % 3 {
    case 0 where !holdsZeroWithExponent(value):
        agree(Probe.self, text, value, exact: false)
        agree(Counter.State.self, text, value)
        agree(TodoList.State.self, text, value)
        agree(Search.State.self, text, value)
        agree(Ticker.State.self, text, value)
        agree([Int8?].self, text, value)
        agree([String: UInt64].self, text, value, exact: false)
        agree(Float.self, text, value)
    case 0:
        break
    case 1:
        checkAction(Probe.Action.self, value)
        checkAction(Counter.Action.self, value)
        checkAction(TodoList.Action.self, value)
        checkAction(Search.Action.self, value)
        checkAction(Ticker.Action.self, value)
    default:
        checkState(Probe.self, value)
        checkState(Counter.State.self, value)
        checkState(TodoList.State.self, value)
        checkState(Search.State.self, value)
        checkState(Ticker.State.self, value)
    }
    return 0
}

// MARK: - Probe: every shape synthesized Codable has

struct Probe: Codable, Equatable, Sendable {
    enum Kind: String, Codable, Sendable { case small, large }
    enum Level: Int, Codable, Sendable { case low = 1, high = 2 }
    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var tags: [String]?
        var ratio: Double?
    }
    enum Action: Codable, Equatable, Sendable {
        case plain
        case single(Int)
        case labelled(a: Int8, b: UInt64?, c: [String])
        case mixed(Int16, name: String)
        case nested(item: Item)
        case numbers(d: Double, f: Float, u: UInt32)
        case map([String: Int])
        case keyed([Int: Bool])
        case kind(Kind)
        case optional(String?)
        case deep([[Level]])
    }

    var kind: Kind
    var level: Level?
    var items: ChunkedArray<Item>
    var names: Set<String>?
    var counts: [String: Int32]
    var byNumber: [Int: String]?
    var small: UInt8?
    var big: Int64?
    var flag: Bool?
    var when: Date?
    var blob: Data?
    var link: URL?
    var amount: Decimal?
    var last: Action?
}

// MARK: - Decoding against Foundation

/// `exact`: failures must also agree in kind and path. Not for types holding dictionaries: Foundation visits a
/// dictionary's entries in hash order, so when several fail, which one it reports varies.
private func agree<T: Decodable & Equatable>(_ type: T.Type, _ text: [UInt8], _ value: JSONValue, exact: Bool = true) {
    let ours = outcome { try JSONValueDecoder().decode(type, from: value) }
    let theirs = outcome { try JSONDecoder().decode(type, from: Data(text)) }
    let same: Bool
    switch (ours, theirs) {
    case (.failure, .failure): same = !exact || ours == theirs
    default: same = ours == theirs
    }
    fuzzCheck(same, "\(T.self) from \(fuzzShow(text)): ours \(ours), Foundation \(theirs)")
    let fromBytes = outcome { try JSONValueDecoder().decode(type, from: text) }
    fuzzCheck(fromBytes == ours, "\(T.self) from bytes \(fromBytes), from the value \(ours)")
}

private enum Outcome<T: Equatable>: Equatable {
    case value(T)
    case failure(kind: String, path: [String]?)
}

private func outcome<T: Equatable>(_ body: () throws -> T) -> Outcome<T> {
    do {
        return .value(try body())
    } catch let error as DecodingError {
        let names = { (path: [any CodingKey]) in path.map(\.stringValue) }
        switch error {
        case .typeMismatch(_, let context): return .failure(kind: "typeMismatch", path: names(context.codingPath))
        case .valueNotFound(_, let context): return .failure(kind: "valueNotFound", path: names(context.codingPath))
        case .keyNotFound(let key, let context): return .failure(kind: "keyNotFound", path: names(context.codingPath + [key]))
        case .dataCorrupted: return .failure(kind: "dataCorrupted", path: nil)
        @unknown default: return .failure(kind: "unknown", path: nil)
        }
    } catch {
        return .failure(kind: "other", path: nil)
    }
}

/// Whether a number in `value` is a zero written with an exponent (`0e5`): exactly zero here, refused or not by
/// Foundation depending on its digits (DecoderParityTests.zeroWithAnExponentIsZero).
private func holdsZeroWithExponent(_ value: JSONValue) -> Bool {
    switch value {
    case .number(let number):
        guard let mark = number.text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return false }
        return !number.text[..<mark].contains { ("1"..."9").contains($0) }
    case .array(let elements): return elements.contains(where: holdsZeroWithExponent)
    case .object(let object): return object.values.contains(where: holdsZeroWithExponent)
    default: return false
    }
}

// MARK: - Actions

private func checkAction<Action: Codable & Equatable & Sendable>(_: Action.Type, _ value: JSONValue) {
    let served = outcome { try FluxStandardAction<Action>.decode(value) }
    let payloadless = PayloadlessActions<Action>()
    let cachedFirst = outcome { try FluxStandardAction<Action>.decode(value, payloadless: payloadless) }
    let cachedAgain = outcome { try FluxStandardAction<Action>.decode(value, payloadless: payloadless) }
    fuzzCheck(cachedFirst == served && cachedAgain == served, "payloadless cache: \(served), \(cachedFirst), \(cachedAgain)")
    let decodable = outcome { try JSONValueDecoder().decode(FluxStandardAction<Action>.self, from: value).action }
    switch (served, decodable) {
    case (.value(let action), .value(let other)):
        fuzzCheck(action == other, "the two FSA paths give \(action) and \(other)")
    case (.value, _), (_, .value):
        fuzzCheck(false, "one FSA path decodes and the other does not: \(served) and \(decodable)")
    default:
        break
    }
    guard case .value(let action) = served else { return }
    guard let fsa = FluxStandardActionEncoding.encode(action) else {
        return fuzzCheck(false, "\(action) does not write as an FSA")
    }
    guard let parsed = try? JSONValue(parsing: fsa) else {
        return fuzzCheck(false, "the FSA \(fuzzShow(fsa)) is not JSON")
    }
    let back = outcome { try FluxStandardAction<Action>.decode(parsed) }
    fuzzCheck(back == .value(action), "the FSA \(fuzzShow(fsa)) of \(action) decodes to \(back)")
}

// MARK: - States

private func checkState<State: Codable & Equatable>(_: State.Type, _ value: JSONValue) {
    guard let state = try? JSONValueDecoder().decode(State.self, from: value) else { return }
    let encoded: [UInt8]
    do {
        encoded = try JSONBytesEncoder().encode(state)
    } catch {
        return fuzzCheck(false, "\(state) decoded but does not encode: \(error)")
    }
    let foundation: Data
    do {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        foundation = try encoder.encode(state)
    } catch {
        return fuzzCheck(
            false, "Foundation cannot encode \(state), which JSONBytesEncoder wrote as \(fuzzShow(encoded))")
    }
    let ours = try? JSONValue(parsing: encoded)
    fuzzCheck(ours != nil && ours == (try? JSONValue(parsing: Array(foundation))),
        "\(State.self): ours \(fuzzShow(encoded)), Foundation \(fuzzShow(Array(foundation)))")
    let back = try? JSONValueDecoder().decode(State.self, from: encoded)
    fuzzCheck(back == state, "\(fuzzShow(encoded)) decodes to \(String(describing: back)), not \(state)")
}
