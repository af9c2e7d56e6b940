// libFuzzer target for the configuration reader (`ConfigurationLoader.parse`: listen, limits, streams, timeouts,
// auth, cors, storage, cluster, log, stores) and the reading of each store's initial state by the reducer catalog,
// with the demo reducers as `statehouse` registers them. Linked with StatehouseServer and DemoReducers by scripts/fuzz.
//
// Input: the configuration file's bytes. These must hold:
// - parsing never traps; a refusal is a ``ConfigurationError`` whose description is one line that starts with the
//   file's path and has a problem to read;
// - an accepted file has its values in their documented ranges (port 0…65535, 1…64 event loops, positive limits),
//   store names valid and unique;
// - the same JSON written compactly, and with its members in the reverse order, is accepted or refused alike and
//   gives the same stores (formatting and member order do not matter) — for files without repeated keys;
// - each store's initial state is read by its reducer (``ReducerCatalog/initialJSON(_:)``) to JSON that parses, or
//   refused with a one-line reason.

@testable import DemoReducers
@testable import JSON
@testable import StatehouseServer
import StatehouseCore

private let catalog = ReducerCatalog().registering(Counter.self).registering(TodoList.self).registering(Search.self)
    .registering(Ticker.self)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let outcome = parse(bytes)
    if case .success(let configuration) = outcome { checkAccepted(configuration) }
    guard let value = try? JSONValue(parsing: bytes, rejectingDuplicateKeys: true) else { return 0 }
    for variant in [value.serialized(), reversed(value).serialized()] {
        let again = parse(variant)
        switch (outcome, again) {
        case (.success(let first), .success(let second)):
            fuzzCheck(first.stores.map(Store.init) == second.stores.map(Store.init) && first.port == second.port
                && first.limits == second.limits,
                "\(fuzzShow(variant)) gives other stores or values than \(fuzzShow(bytes))")
        case (.failure, .failure):
            break
        default:
            fuzzCheck(false, "\(fuzzShow(bytes)) and \(fuzzShow(variant)) are not both accepted or refused: \(outcome), \(again)")
        }
    }
    return 0
}

private func parse(_ bytes: [UInt8]) -> Result<ServerConfiguration, ConfigurationError> {
    do {
        return .success(try ConfigurationLoader.parse(bytes, path: "fuzz.json"))
    } catch {
        let line = error.description
        fuzzCheck(!line.contains("\n") && !line.contains("\r"), "a refusal spans lines: \(line.debugDescription)")
        fuzzCheck(line.hasPrefix("fuzz.json: ") && !error.problem.isEmpty, "a refusal without path or problem: \(line)")
        return .failure(error)
    }
}

private func checkAccepted(_ configuration: ServerConfiguration) {
    fuzzCheck((0...65535).contains(configuration.port), "port \(configuration.port)")
    fuzzCheck((1...64).contains(configuration.eventLoops), "eventLoops \(configuration.eventLoops)")
    let limits = configuration.limits
    fuzzCheck(limits.maxBodyBytes > 0 && limits.maxHeaderBytes > 0 && limits.maxMessageBytes > 0, "limits \(limits)")
    var names = Set<String>()
    for declaration in configuration.stores {
        fuzzCheck(ServerConfiguration.isValidStoreName(declaration.name), "store name \(declaration.name.debugDescription)")
        fuzzCheck(names.insert(declaration.name).inserted, "store \(declaration.name) twice")
        do {
            let json = try catalog.initialJSON(declaration)
            fuzzCheck((try? JSONValue(parsing: json)) != nil, "the initial state of \(declaration.name) is not JSON")
        } catch {
            if case .invalidState(let reason) = error {
                fuzzCheck(!reason.contains("\n") && !reason.contains("\r"), "a reason spans lines: \(reason.debugDescription)")
            }
        }
    }
}

/// A store declaration with its initial state as sorted JSON (the declaration keeps the file's bytes).
private struct Store: Equatable {
    var name, reducer: String
    var state: [UInt8]?
    var durable: Bool
    var log: StoreLogging

    init(_ declaration: ServerConfiguration.StoreDeclaration) {
        (name, reducer, durable, log) = (declaration.name, declaration.reducer, declaration.durable, declaration.log)
        state = declaration.initialState.map { (try? JSONValue(parsing: $0))?.serialized(sortedKeys: true) ?? $0 }
    }
}

/// `value` with every object's members in the reverse order.
private func reversed(_ value: JSONValue) -> JSONValue {
    switch value {
    case .array(let elements): return .array(elements.map(reversed))
    case .object(let object):
        var flipped = JSONObject()
        for (key, member) in zip(object.keys, object.values).reversed() { flipped[key] = reversed(member) }
        return .object(flipped)
    default: return value
    }
}
