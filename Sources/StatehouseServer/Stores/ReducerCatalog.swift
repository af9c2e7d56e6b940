import Foundation
import StatehouseCore

/// The reducer types a server can host, by the name the configuration uses (e.g. `"Counter"`).
public struct ReducerCatalog: Sendable {
    typealias Factory = @Sendable (
        _ declaration: ServerConfiguration.StoreDeclaration, _ historySize: Int, _ executor: (any StoreExecutor)?
    ) throws -> any HostedStore

    private var factories: [String: Factory] = [:]

    public init() {}

    /// Registers `type` under `name` (default: the type's own name).
    public mutating func register<R: ServableReducer>(_ type: R.Type, as name: String? = nil) {
        let reducerName = name ?? String(describing: type)
        factories[reducerName] = { declaration, historySize, executor in
            var state = R.initialState
            if let json = declaration.initialState {
                state = try JSONDecoder().decode(R.State.self, from: Data(json))
            }
            return TypedStore<R>.hosted(
                name: declaration.name, reducerName: reducerName, state: state, historySize: historySize, executor: executor)
        }
    }

    /// Registered names, sorted.
    public var names: [String] { factories.keys.sorted() }

    /// Builds the stores a configuration declares, the i-th bound to `executors[i % executors.count]` (on the pool
    /// when `executors` is empty).
    /// - Throws: ``ConfigurationError`` naming `stores[i].reducer` for an unknown reducer, or `stores[i].state` for
    ///   a state the reducer's `State` cannot decode.
    func makeStores(
        for configuration: ServerConfiguration, path: String, executors: [any StoreExecutor]
    ) throws(ConfigurationError) -> [any HostedStore] {
        var stores: [any HostedStore] = []
        for (index, declaration) in configuration.stores.enumerated() {
            let executor = executors.isEmpty ? nil : executors[index % executors.count]
            do {
                stores.append(try build(declaration, historySize: configuration.streams.historySize, executor: executor))
            } catch {
                switch error {
                case .unknownReducer:
                    throw ConfigurationError(
                        path: path, location: "stores[\(index)].reducer",
                        problem: "unknown reducer \"\(declaration.reducer)\"; known: \(names.joined(separator: ", "))")
                case .invalidState(let problem):
                    throw ConfigurationError(
                        path: path, location: "stores[\(index)].state",
                        problem: "is not a valid \(declaration.reducer) state (\(problem))")
                }
            }
        }
        return stores
    }

    /// Why a store could not be built.
    enum BuildFailure: Error {
        case unknownReducer
        /// The initial state does not decode; the text says where and why.
        case invalidState(String)
    }

    /// Builds one store (not started), bound to `executor` (`nil`: Swift's concurrency pool).
    /// - Throws: ``BuildFailure``.
    func build(
        _ declaration: ServerConfiguration.StoreDeclaration, historySize: Int, executor: (any StoreExecutor)?
    ) throws(BuildFailure) -> any HostedStore {
        guard let factory = factories[declaration.reducer] else { throw .unknownReducer }
        do {
            return try factory(declaration, historySize, executor)
        } catch {
            throw .invalidState(Self.describe(error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        func place(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? "the state" : "\"\(path)\""
        }
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            let within = context.codingPath.isEmpty ? "" : " in \(place(context))"
            return "missing \"\(key.stringValue)\"\(within)"
        case DecodingError.typeMismatch(let type, let context):
            return "\(place(context)) must be \(JSONTypeName.of(type))"
        case DecodingError.valueNotFound(let type, let context):
            return "\(place(context)) must be \(JSONTypeName.of(type)), not null"
        case DecodingError.dataCorrupted(let context):
            return "\(place(context)) is invalid: \(context.debugDescription)"
        default: return "\(error)"
        }
    }
}
