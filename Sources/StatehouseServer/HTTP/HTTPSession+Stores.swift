import HTTP1
import JSON

/// Store lifecycle over HTTP: `PUT /stores/{name}` creates, `DELETE /stores/{name}` deletes.
extension HTTPSession {
    /// `PUT /stores/{name}` `{"reducer":"Counter","state":{…}}` (state optional): 201 with the new store's state;
    /// 200 when it exists with that reducer (unchanged); 409 `store_exists` when it exists with another.
    func putStore(_ name: String, _ request: HTTPRequest) {
        guard context.cluster == nil else {
            return send(error: .storesFixedInCluster, keepAlive: request.keepAlive, headOnly: false)
        }
        guard ServerConfiguration.isValidStoreName(name) else {
            return send(error: .invalidStoreName(name), keepAlive: request.keepAlive, headOnly: false)
        }
        let declaration: ServerConfiguration.StoreDeclaration
        do {
            declaration = try Self.declaration(name, request.body)
        } catch {
            return send(error: error, keepAlive: request.keepAlive, headOnly: false)
        }
        if let existing = context.stores[name] {
            return answerExisting(existing, declaration, request)
        }
        guard context.stores.count < context.limits.maxStores else {
            return send(error: .tooManyStores(context.limits.maxStores), keepAlive: request.keepAlive, headOnly: false)
        }
        guard let durability = context.durability else {
            let store: HostedStore
            do {
                store = try context.catalog.build(
                    declaration, historySize: context.historySize, executor: context.storeExecutor, logger: context.logger)
            } catch {
                return send(error: buildProblem(error, declaration), keepAlive: request.keepAlive, headOnly: false)
            }
            return host(store, declaration, request)
        }
        if let failure = durability.failure {  // interval/off: writing fails; nothing new is queued behind it
            return send(error: .storageUnavailable(failure), keepAlive: request.keepAlive, headOnly: false)
        }
        if durability.unservedNames.withLock({ $0.contains(name) }) {
            return send(error: .storeNotServed(name), keepAlive: request.keepAlive, headOnly: false)
        }
        let state0: [UInt8]
        do {
            state0 = try context.catalog.initialJSON(declaration)
        } catch {
            return send(error: buildProblem(error, declaration), keepAlive: request.keepAlive, headOnly: false)
        }
        // Durable: the store's row (and its version-0 snapshot) is committed before it serves or is announced.
        let epoch = StoreHistory.newEpoch()
        let loop = context.loop
        durability.database.createStore(
            name: name, reducer: declaration.reducer, initialState: declaration.initialState, epoch: epoch, createdBy: .put,
            state0: state0
        ) { result in
            loop.execute { [self] in
                switch result {
                case .failure(let error):
                    guard isAnswering else { return }
                    if let existing = context.stores[name] {
                        answerExisting(existing, declaration, request)  // a PUT of the same name won the race
                    } else if error.isNameTaken {
                        send(error: .storeNameBusy(name), keepAlive: request.keepAlive, headOnly: false)
                    } else {
                        send(error: .notWritten(error), keepAlive: request.keepAlive, headOnly: false)
                    }
                    processNext()
                case .success(let id):
                    let persistence = StorePersistence(durability: durability, storeID: id, epoch: epoch)
                    let durable: HostedStore
                    do throws(ReducerCatalog.BuildFailure) {
                        durable = try context.catalog.build(
                            declaration, historySize: context.historySize, executor: context.storeExecutor,
                            persistence: persistence, logger: context.logger)
                    } catch {
                        // Not expected (initialJSON read the same state); never left waiting, and no orphan row.
                        durability.database.deleteStore(id: id) { _ in }
                        guard isAnswering else { return }
                        send(error: buildProblem(error, declaration), keepAlive: request.keepAlive, headOnly: false)
                        return processNext()
                    }
                    host(durable, declaration, request)
                }
            }
        }
    }

    /// The 400 (or, never for a new store, 500) answer to a store that cannot be built from `declaration`.
    private func buildProblem(_ error: ReducerCatalog.BuildFailure, _ declaration: ServerConfiguration.StoreDeclaration) -> APIError {
        switch error {
        case .unknownReducer: .unknownReducer(declaration.reducer, known: context.catalog.names)
        case .invalidState(let detail): .invalidState(declaration.reducer, detail)
        case .unrecoverable(let detail): .internalError("\(detail)")  // only at recovery; kept exhaustive
        }
    }

    /// Starts `store` and adds it to the table, then answers 201 (or as for an existing store when a request of the
    /// same name came first, or 507 when the table is full). A durable store is hosted even when its client has gone:
    /// its row is committed.
    private func host(_ store: HostedStore, _ declaration: ServerConfiguration.StoreDeclaration, _ request: HTTPRequest) {
        let loop = context.loop
        let name = store.name
        Task {
            await store.start()
            loop.execute { [self] in
                guard isAnswering || store.persistence != nil else { return }
                let addition = context.stores.add(store, limit: context.limits.maxStores)
                if case .added = addition {
                    context.logger.info(
                        "store \(name) created (\(declaration.reducer))", metadata: requestMetadata(store: name))
                } else {
                    store.stop {}  // never hosted: another request created the name first, or the table is full
                    if let persistence = store.persistence { persistence.durability.database.deleteStore(id: persistence.storeID) { _ in } }
                }
                guard isAnswering else { return }
                switch addition {
                case .exists(let existing):
                    answerExisting(existing, declaration, request)
                case .full:
                    send(error: .tooManyStores(context.limits.maxStores), keepAlive: request.keepAlive, headOnly: false)
                case .added:
                    send(Responses.json(201, WireMessage.storeState(store: name, store.read()),
                        fields: [HTTPField(name: "Location", value: "/stores/\(name)")]),
                        keepAlive: request.keepAlive, headOnly: false)
                }
                processNext()
            }
        }
    }

    private func answerExisting(_ existing: HostedStore, _ declaration: ServerConfiguration.StoreDeclaration, _ request: HTTPRequest) {
        guard existing.reducerName == declaration.reducer else {
            return send(error: .storeExists(existing.name, reducer: existing.reducerName), keepAlive: request.keepAlive, headOnly: false)
        }
        send(Responses.json(200, WireMessage.storeState(store: existing.name, existing.read())), keepAlive: request.keepAlive, headOnly: false)
    }

    /// `DELETE /stores/{name}`: 204; the store's effects are cancelled and its subscribers get a final `deleted`.
    func deleteStore(_ name: String, _ request: HTTPRequest) {
        guard context.cluster == nil else {
            return send(error: .storesFixedInCluster, keepAlive: request.keepAlive, headOnly: false)
        }
        if let failure = context.durability?.failure, context.stores[name]?.persistence != nil {
            // interval/off: writing fails; the deletion could not be written, so the store stays.
            return send(error: .storageUnavailable(failure), keepAlive: request.keepAlive, headOnly: false)
        }
        guard let store = context.stores.remove(name) else {
            return send(error: .storeNotFound(name), keepAlive: request.keepAlive, headOnly: false)
        }
        context.logger.info("store \(name) deleted", metadata: requestMetadata(store: name))
        let fanout = store.fanout
        MemoryReclaim.trimSoon()  // once its subscribers have gone, its memory goes back to the OS
        guard let persistence = store.persistence else {
            store.stop { fanout.storeDeleted() }
            return send(HTTPResponse(status: 204), keepAlive: request.keepAlive, headOnly: false)
        }
        // Durable: after the stop (every batch before it is written), its rows go; 204 once that is committed.
        let loop = context.loop
        store.stop {
            fanout.storeDeleted()
            persistence.durability.database.deleteStore(id: persistence.storeID) { error in
                loop.execute { [self] in
                    guard isAnswering else { return }
                    if let error {
                        context.logger.error(
                            "store \(name): its data could not be deleted (\(error)); it returns at the next start",
                            metadata: requestMetadata(store: name))
                        send(error: .notWritten(error), keepAlive: request.keepAlive, headOnly: false)
                    } else {
                        send(HTTPResponse(status: 204), keepAlive: request.keepAlive, headOnly: false)
                    }
                    processNext()
                }
            }
        }
    }

    /// Reads a PUT body: an object with a string `reducer` and an optional `state`.
    private static func declaration(_ name: String, _ body: [UInt8]) throws(APIError) -> ServerConfiguration.StoreDeclaration {
        guard let object = (try? JSONValue(parsing: body))?.objectValue,  // strict RFC 8259, as every other body
            case .string(let reducer)? = object["reducer"],
            object.keys.allSatisfy({ $0 == "reducer" || $0 == "state" })
        else { throw .invalidStore }
        let state = object["state"].map { $0.serialized() }
        return .init(name: name, reducer: reducer, initialState: state)
    }
}
