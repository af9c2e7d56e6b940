public import Statehouse
import JSONCoding
import StatehouseCore

/// The reducer types a server can host, by the name the configuration uses (e.g. `"Counter"`).
public struct ReducerCatalog: Sendable {
    typealias Factory = @Sendable (
        _ declaration: ServerConfiguration.StoreDeclaration, _ historySize: Int, _ executor: (any StoreExecutor)?,
        _ persistence: StorePersistence?, _ recovery: StoreRecovery?, _ logger: Logger
    ) throws -> HostedStore

    private var factories: [String: Factory] = [:]
    /// Builds a store of a cluster node (``ClusteredStore``), by reducer name.
    typealias ClusterFactory = @Sendable (
        _ declaration: ServerConfiguration.StoreDeclaration, _ historySize: Int, _ executor: (any StoreExecutor)?,
        _ node: ClusterNode, _ logger: Logger
    ) throws -> HostedStore
    private var clusterFactories: [String: ClusterFactory] = [:]
    /// The initial state JSON a declaration gives a new store (its `state`, or the reducer's own), by reducer name.
    private var initialStates: [String: @Sendable (_ declaration: ServerConfiguration.StoreDeclaration) throws -> [UInt8]] = [:]
    /// Replays a store's journal through the reducer (`statehouse replay`), by reducer name.
    private(set) var replayers: [String: Replayer] = [:]

    public init() {}

    /// This catalog with `type` registered too, under `name` (default: the type's own name, so `Counter.self` is
    /// `Counter` in the configuration): `ReducerCatalog().registering(Counter.self).registering(TodoList.self)`.
    ///
    /// Register concrete types, one call each, never through `any ServableReducer.Type` (an array of metatypes, or a
    /// parameter pack): only where the type is concrete at the call does a release build (`-cross-module-optimization`)
    /// compile the store code for it. Registered through an existential, every store runs generically, looking its
    /// types up at run time: measured 2026-12-05, about 55,000 instead of 31,000 instructions per
    /// `POST /stores/counter/actions` (BENCHMARKS.md, issue 14).
    public func registering<R: ServableReducer>(_ type: R.Type, as name: String? = nil) -> ReducerCatalog {
        var catalog = self
        catalog.register(type, as: name)
        return catalog
    }

    /// Registers `type` under `name` (default: the type's own name). Call it with a concrete type (see
    /// ``registering(_:as:)``).
    public mutating func register<R: ServableReducer>(_ type: R.Type, as name: String? = nil) {
        let reducerName = name ?? String(describing: type)
        @Sendable func initialState(_ declaration: ServerConfiguration.StoreDeclaration) throws -> R.State {
            guard let json = declaration.initialState else { return R.initialState }
            // As recovery decodes snapshots (TypedStore+Durability.swift): the project's parser, then JSONCoding.
            return try JSONValueDecoder().decode(R.State.self, from: json)
        }
        initialStates[reducerName] = { declaration in TypedStore<R>.encode(try initialState(declaration)) }
        // One table of decoded actions for all of R's stores: an action's decoding is a function of its JSON alone
        // (ServableReducer), and a table per store cost 112 heap bytes per idle store (StoreMemoryTests).
        let decoded = DecodedActions<R.Action>()
        factories[reducerName] = { declaration, historySize, executor, persistence, recovery, logger in
            let state = try initialState(declaration)
            return try TypedStore<R>.hosted(
                name: declaration.name, reducerName: reducerName, state: state, historySize: historySize, executor: executor,
                persistence: persistence, recovery: recovery, decoded: decoded, logging: declaration.log,
                logger: logger)
        }
        clusterFactories[reducerName] = { declaration, historySize, executor, node, logger in
            try ClusteredStore<R>.hosted(
                name: declaration.name, reducerName: reducerName, state: try initialState(declaration),
                historySize: historySize, executor: executor, node: node, decoded: decoded, logging: declaration.log,
                logger: logger)
        }
        replayers[reducerName] = { database, stored, target, verify in
            try TypedStore<R>.replayJournal(database, stored, to: target, verify: verify)
        }
    }

    /// Registered names, sorted.
    public var names: [String] { factories.keys.sorted() }

    /// Builds the stores a configuration declares, the i-th bound to `executors[i % executors.count]` (on the pool
    /// when `executors` is empty). With `durability`, each durable store is the one its database holds (recovered),
    /// or is created in it; stores created with `PUT` come back too (see `ReducerCatalog+Durability.swift`). Each
    /// store logs to `logger` (adding `store=<name>`), and so do the warnings about stored data not served.
    /// - Throws: ``ConfigurationError`` naming `stores[i].reducer` for an unknown reducer, or `stores[i].state` for
    ///   a state the reducer's `State` cannot decode; naming the database file when it cannot be read or a store in it
    ///   cannot be recovered.
    func makeStores(
        for configuration: ServerConfiguration, path: String, executors: [any StoreExecutor],
        durability: StoreDurability? = nil, logger: Logger
    ) throws(ConfigurationError) -> [HostedStore] {
        let stored = try durability.map { durability throws(ConfigurationError) in try Self.storedStores(durability) } ?? [:]
        var stores: [HostedStore] = []
        for (index, declaration) in configuration.stores.enumerated() {
            let executor = executors.isEmpty ? nil : executors[index % executors.count]
            let at = "stores[\(index)]"
            var persistence: (StorePersistence, StoreRecovery?)?
            if let durability, declaration.durable {
                persistence = try self.persistence(
                    for: declaration, stored: stored[declaration.name], createdBy: .configuration, durability: durability,
                    historySize: configuration.streams.historySize, path: path, at: at)
            } else if let durability, stored[declaration.name] != nil {
                durability.unservedNames.withLock { _ = $0.insert(declaration.name) }
                logger.warning(
                    "store \(declaration.name) is \"durable\": false but its database holds data of it: served in memory, "
                        + "its data is left as it is", metadata: ["store": declaration.name])
            }
            stores.append(try build(
                declaration, configuration: configuration, executor: executor, persistence: persistence, path: path, at: at,
                logger: logger))
        }
        guard let durability else { return stores }
        let declared = Set(configuration.stores.map(\.name))
        for (offset, saved) in stored.values.sorted(by: { $0.id < $1.id }).enumerated() where !declared.contains(saved.name) {
            guard saved.createdBy == .put else {
                durability.unservedNames.withLock { _ = $0.insert(saved.name) }
                logger.warning(
                    "store \(saved.name) is in \(durability.configuration.path) but no longer in the configuration: not served, "
                        + "its data is left as it is", metadata: ["store": saved.name])
                continue
            }
            let declaration = ServerConfiguration.StoreDeclaration(
                name: saved.name, reducer: saved.reducer, initialState: saved.initialState)
            let executor = executors.isEmpty ? nil : executors[(configuration.stores.count + offset) % executors.count]
            let at = "store \(saved.name) (created with PUT)"
            let persistence = try self.persistence(
                for: declaration, stored: saved, createdBy: .put, durability: durability,
                historySize: configuration.streams.historySize, path: durability.configuration.path, at: at)
            stores.append(try build(
                declaration, configuration: configuration, executor: executor, persistence: persistence,
                path: durability.configuration.path, at: at, logger: logger))
        }
        return stores
    }

    /// Builds the stores of a cluster node: each configured store, opened in Redis and followed from its stream (no
    /// lease is taken before the store is used).
    /// - Throws: ``ConfigurationError`` naming `stores[i].reducer` for an unknown reducer, or the store when Redis
    ///   holds it for another reducer or its data does not decode.
    func makeClusteredStores(
        for configuration: ServerConfiguration, path: String, executors: [any StoreExecutor], node: ClusterNode,
        logger: Logger
    ) throws(ConfigurationError) -> [HostedStore] {
        var stores: [HostedStore] = []
        for (index, declaration) in configuration.stores.enumerated() {
            let executor = executors.isEmpty ? nil : executors[index % executors.count]
            guard let factory = clusterFactories[declaration.reducer] else {
                throw ConfigurationError(
                    path: path, location: "stores[\(index)].reducer",
                    problem: "unknown reducer \"\(declaration.reducer)\"; registered: \(names.joined(separator: ", "))")
            }
            do {
                stores.append(try factory(declaration, configuration.streams.historySize, executor, node, logger))
            } catch {
                throw ConfigurationError(path: configuration.cluster?.redis ?? path, location: "", problem: "\(error)")
            }
        }
        return stores
    }

    /// ``build(_:historySize:executor:persistence:recovery:logger:)`` with its failures as configuration errors at `at`.
    private func build(
        _ declaration: ServerConfiguration.StoreDeclaration, configuration: ServerConfiguration, executor: (any StoreExecutor)?,
        persistence: (StorePersistence, StoreRecovery?)?, path: String, at: String, logger: Logger
    ) throws(ConfigurationError) -> HostedStore {
        do {
            return try build(
                declaration, historySize: configuration.streams.historySize, executor: executor, persistence: persistence?.0,
                recovery: persistence?.1, logger: logger)
        } catch {
            switch error {
            case .unknownReducer:
                throw ConfigurationError(
                    path: path, location: "\(at).reducer",
                    problem: "unknown reducer \"\(declaration.reducer)\"; known: \(names.joined(separator: ", "))")
            case .invalidState(let problem):
                throw ConfigurationError(
                    path: path, location: "\(at).state", problem: "is not a valid \(declaration.reducer) state (\(problem))")
            case .unrecoverable(let problem):
                throw ConfigurationError(
                    path: persistence?.0.durability.configuration.path ?? path, location: "",
                    problem: "cannot recover \(problem); see docs/durability.md (changing a reducer)")
            }
        }
    }

    /// Why a store could not be built.
    enum BuildFailure: Error {
        case unknownReducer
        /// The initial state does not decode; the text says where and why.
        case invalidState(String)
        /// A durable store's snapshot or journal does not decode.
        case unrecoverable(RecoveryError)
    }

    /// Builds one store (not started), bound to `executor` (`nil`: Swift's concurrency pool); with `persistence`, the
    /// store its database holds (see ``TypedStore``). The store logs to `logger`, adding `store=<name>`.
    /// - Throws: ``BuildFailure``.
    func build(
        _ declaration: ServerConfiguration.StoreDeclaration, historySize: Int, executor: (any StoreExecutor)?,
        persistence: StorePersistence? = nil, recovery: StoreRecovery? = nil, logger: Logger
    ) throws(BuildFailure) -> HostedStore {
        guard let factory = factories[declaration.reducer] else { throw .unknownReducer }
        do {
            return try factory(declaration, historySize, executor, persistence, recovery, logger)
        } catch let error as RecoveryError {
            throw .unrecoverable(error)
        } catch {
            throw .invalidState(Self.describe(error))
        }
    }

    /// The state JSON of version 0 of a new store of `declaration` (what its database row starts from), without
    /// building the store.
    /// - Throws: ``BuildFailure`` as ``build(_:historySize:executor:persistence:recovery:logger:)`` would.
    func initialJSON(_ declaration: ServerConfiguration.StoreDeclaration) throws(BuildFailure) -> [UInt8] {
        guard let initial = initialStates[declaration.reducer] else { throw .unknownReducer }
        do {
            return try initial(declaration)
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
