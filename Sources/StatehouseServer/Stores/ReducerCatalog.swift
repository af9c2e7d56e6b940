import Foundation
import StatehouseCore

/// The reducer types a server can host, by the name the configuration uses (e.g. `"Counter"`).
public struct ReducerCatalog: Sendable {
    typealias Factory = @Sendable (_ declaration: ServerConfiguration.StoreDeclaration) throws -> any HostedStore

    private var factories: [String: Factory] = [:]

    public init() {}

    /// Registers `type` under `name` (default: the type's own name).
    public mutating func register<R: ServableReducer>(_ type: R.Type, as name: String? = nil) {
        let reducerName = name ?? String(describing: type)
        factories[reducerName] = { declaration in
            var state = R.initialState
            if let json = declaration.initialState {
                state = try JSONDecoder().decode(R.State.self, from: Data(json))
            }
            return HostedStoreBox<R>(name: declaration.name, reducerName: reducerName, state: state)
        }
    }

    /// Registered names, sorted.
    public var names: [String] { factories.keys.sorted() }

    /// Builds the stores a configuration declares.
    /// - Throws: ``ConfigurationError`` naming `stores[i].reducer` for an unknown reducer, or `stores[i].state` for
    ///   a state the reducer's `State` cannot decode.
    func makeStores(for configuration: ServerConfiguration, path: String) throws(ConfigurationError) -> [any HostedStore] {
        var stores: [any HostedStore] = []
        for (index, declaration) in configuration.stores.enumerated() {
            guard let factory = factories[declaration.reducer] else {
                throw ConfigurationError(
                    path: path, location: "stores[\(index)].reducer",
                    problem: "unknown reducer \"\(declaration.reducer)\"; known: \(names.joined(separator: ", "))")
            }
            do {
                stores.append(try factory(declaration))
            } catch {
                throw ConfigurationError(
                    path: path, location: "stores[\(index)].state",
                    problem: "is not a valid \(declaration.reducer) state (\(Self.describe(error)))")
            }
        }
        return stores
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(let type, let context):
            return "\(context.codingPath.map(\.stringValue).joined(separator: ".")) must be \(type)"
        case DecodingError.valueNotFound(_, let context):
            return "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is null"
        default: return "\(error)"
        }
    }
}
