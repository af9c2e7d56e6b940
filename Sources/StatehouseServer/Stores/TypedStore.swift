import Synchronization
import Statehouse
import JSONCoding
import JSON
import StatehouseCore
import Locking

/// One `Store<R>` with the typed half of hosting it: actions decoded from JSON and bound to the store, states encoded
/// to JSON at most once per version (the broadcast and the replies share one encoding), events sent as FSAs.
///
/// ``hosted(name:reducerName:state:historySize:executor:persistence:recovery:decoded:logging:logger:)`` wraps it in a ``HostedStore``; call it where `R` is
/// concrete (``ReducerCatalog/register(_:as:)``), so the closures it makes are compiled for `R`.
///
/// ## Thread safety
/// Sendable: immutable references plus a locked encoding cache (``Encodings``).
final class TypedStore<R: ServableReducer>: Sendable {
    let name: String
    let fanout: StoreFanout
    let store: Store<R>
    /// Actions decoded before (without payload by type; small bodies by their bytes); shared by every store of `R` in
    /// one catalog.
    let decoded: DecodedActions<R.Action>
    /// Actions without payload, decoded once per type.
    var payloadless: PayloadlessActions<R.Action> { decoded.payloadless }
    /// The last state encoded and the encode cache (every caller runs on the store's executor; the lock costs an
    /// uncontended atomic).
    private let cached = Locked(Encodings())

    /// What ``encode(_:)`` keeps between versions.
    struct Encodings: Sendable {
        /// The last state encoded.
        var reply: StateReply?
        /// Made when a state was found to hold chunked arrays (``Statehouse/ChunkedArray``); nil for other states,
        /// so a small store pays one word for it.
        var incremental: IncrementalEncodings?
    }

    /// The encode cache of a store whose state holds chunked arrays.
    ///
    /// ## Thread safety
    /// `@unchecked Sendable`: a class only so that ``Encodings`` stays one word when unused; it is read and written
    /// only inside ``TypedStore``'s lock (`cached`).
    final class IncrementalEncodings: @unchecked Sendable {
        /// The chunks' JSON of the last encodes.
        var cache: JSONEncodeCache
        /// The encoding of ``Encodings/reply``'s version.
        var traced: JSONIncrementalEncoding?
        /// The encoding (without its text) of the last version handed to the fan-out, for the next one's patch.
        var streamed: (version: UInt64, encoding: JSONIncrementalEncoding)?

        init(cache: JSONEncodeCache) {
            self.cache = cache
        }
    }

    /// Where the store is written (nil: in memory only, or in a cluster's Redis: see ``journaled``).
    let persistence: StorePersistence?
    /// Whether the store writes a journal (SQLite, or a cluster's Redis, whose journal gates output): its actions then
    /// hear when a batch could not be written. Computed, not stored: an idle store's heap cost is budgeted.
    var journaled: Bool { persistence != nil || store.gatesOutput }
    /// Writes one line with `store=<name>` to the server's logger: at `info` for the store's ``StoreLogging`` records
    /// (actions, states), at `warning` for the others (effect errors, events not sent). Shared with ``store`` (one
    /// closure per store, 16 bytes here: the metadata is built only when a line is written). The store says which kind
    /// each line is (``StatehouseCore/StoreLogLineKind``).
    let log: @Sendable (String, StoreLogLineKind) -> Void

    /// A store at `state` (version 0), or, with `persistence`, the store its database holds: its latest snapshot and
    /// the actions after it replayed through the reducer (no effect runs), its epoch, and the last `historySize`
    /// versions of its history. The store's warnings (effect errors, events not sent) go to `logger` with
    /// `store=<name>`, and so do the lines `logging` asks for (at `info`).
    /// - Throws: ``RecoveryError`` when a snapshot or an action of the journal does not decode.
    init(
        name: String, state: R.State, historySize: Int, executor: (any StoreExecutor)?, persistence: StorePersistence? = nil,
        recovery: StoreRecovery? = nil, decoded: DecodedActions<R.Action>, logging: StoreLogging = [], logger: Logger
    ) throws(RecoveryError) {
        self.name = name
        self.decoded = decoded
        self.persistence = persistence
        let log: @Sendable (String, StoreLogLineKind) -> Void = { line, kind in
            logger.log(kind == .record ? .info : .warning, line, metadata: ["store": name])
        }
        self.log = log
        guard let persistence else {
            fanout = StoreFanout(
                storeName: name, historySize: historySize, initialJSON: Self.seed(cached, Snapshot(version: 0, state: state)))
            store = Store(
                reducer: R(), state: state, name: name, lineLogger: log, logging: logging, executor: executor,
                startsAtInit: false)
            return
        }
        var recovered = Snapshot(version: 0, state: state)
        if let recovery {
            (recovered, fanout) = try Self.recovered(
                name: name, base: recovery.base, rows: recovery.rows, historySize: historySize, epoch: persistence.epoch)
        } else {
            fanout = StoreFanout(
                storeName: name, historySize: historySize, epoch: persistence.epoch, version: 0,
                initialJSON: Self.encode(state))
        }
        _ = Self.seed(cached, recovered)
        store = Store(
            reducer: R(), state: state, name: name, lineLogger: log, logging: logging, executor: executor,
            recovered: recovered, journal: Self.journal(persistence), startsAtInit: false)
    }

    /// A store that takes over `fanout` at `recovered` and writes each batch to `journal` (a node of a cluster taking
    /// a store's lease: ``ClusteredStore``); `state` stays the initial state a reset restores.
    init(
        name: String, fanout: StoreFanout, state: R.State, recovered: Snapshot<R.State>, journal: StoreJournal<R.Action, R.State>,
        executor: (any StoreExecutor)?, decoded: DecodedActions<R.Action>, logging: StoreLogging, logger: Logger
    ) {
        self.name = name
        self.decoded = decoded
        self.fanout = fanout
        persistence = nil
        let log: @Sendable (String, StoreLogLineKind) -> Void = { line, kind in
            logger.log(kind == .record ? .info : .warning, line, metadata: ["store": name])
        }
        self.log = log
        _ = Self.seed(cached, recovered)
        store = Store(
            reducer: R(), state: state, name: name, lineLogger: log, logging: logging, executor: executor,
            recovered: recovered, journal: journal, startsAtInit: false)
    }

    /// A new store of `R`, hosted.
    static func hosted(
        name: String, reducerName: String, state: R.State, historySize: Int, executor: (any StoreExecutor)?,
        persistence: StorePersistence? = nil, recovery: StoreRecovery? = nil, decoded: DecodedActions<R.Action>,
        logging: StoreLogging = [], logger: Logger
    ) throws(RecoveryError) -> HostedStore {
        let typed = try TypedStore(
            name: name, state: state, historySize: historySize, executor: executor, persistence: persistence,
            recovery: recovery, decoded: decoded, logging: logging, logger: logger)
        let operations = HostedStore.Operations(
            start: { await typed.start() },
            control: { command in
                switch command {
                case .stop(let done): typed.store.enqueueStop { _ in done() }
                case .setLogging(let logging): Task { await typed.store.setLogging(logging) }
                }
            },
            reset: { reply in
                typed.store.enqueueReset(
                    .restoringInitialState, completion: { reply(.success(typed.encode($0))) }, notWritten: { reply(.failure(.notWritten($0))) })
            },
            prepare: { typed.prepare(actionJSON: $0) },
            decodeClientMessage: { typed.decodeClientMessage($0) },
            stateAt: { try typed.state(at: $0) },
            actionCounts: { [store = typed.store] in
                (store.actionCounts.reduced, store.actionCounts.dropped, store.actionCounts.reduceDurations)
            })
        return HostedStore(
            name: name, reducerName: reducerName, fanout: typed.fanout, persistence: persistence, keys: recovery?.keys ?? [],
            operations: operations)
    }

    /// Registers the observers, then starts the store (made with `startsAtInit: false`: a store starts once hosted, see
    /// `HTTPSession.host`, with its observers in place to see bind's first states).
    func start() async {
        // One observer per store: each new state is encoded once, kept in the history, and streamed.
        _ = await store.observe { [self] snapshot in
            let (reply, patch, sharedEnds) = encodeForStream(snapshot)
            fanout.stateChanged(version: snapshot.version, json: reply.state, patch: patch, sharedEnds: sharedEnds)
        }
        _ = await store.observeEvents { [self] event in
            guard let fsa = FluxStandardActionEncoding.encode(event) else {
                log("store \(name): an event of type \(type(of: event)) is not an enum case; not sent", .problem)
                return
            }
            fanout.eventEmitted(fsa)
        }
        await store.start()
    }

    func prepare(actionJSON: [UInt8]) -> Result<PreparedAction, APIError> {
        Self.prepare(actionJSON: actionJSON, decoded: decoded) { bind(leading: $0, last: $1) }
    }

    /// Decodes `actionJSON` (one Flux Standard Action, or an array of them) and binds the actions with `bind`
    /// (leading actions, last action): the decoding a ``TypedStore`` and a ``ClusteredStore`` share.
    static func prepare(
        actionJSON: [UInt8], decoded: DecodedActions<R.Action>,
        bind: (ArraySlice<R.Action>, R.Action) -> PreparedAction
    ) -> Result<PreparedAction, APIError> {
        let payloadless = decoded.payloadless
        if let known = decoded.action(body: actionJSON) { return .success(bind([], known)) }
        do {
            let value: JSONValue
            do {
                value = try JSONValue(parsing: actionJSON)
            } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not JSON", underlyingError: error))
            }
            if case .array(let elements) = value {
                guard !elements.isEmpty else {
                    return .failure(.invalidAction("The array holds no action; send at least one."))
                }
                var actions: [R.Action] = []
                actions.reserveCapacity(elements.count)
                for (index, element) in elements.enumerated() {
                    do {
                        actions.append(try FluxStandardAction<R.Action>.decode(element, payloadless: payloadless))
                    } catch let error as DecodingError {
                        throw error.prefixingPath(with: PositionKey(index))
                    } catch {
                        // A problem with the element's FSA envelope (no type, unknown type): say which element.
                        var problem = ActionErrorMessage.apiError(for: error, actionTypes: R.actionTypes)
                        problem.message = "Action \(index) of the batch (counting from 0): " + problem.message
                        return .failure(problem)
                    }
                }
                return .success(bind(actions.dropLast(), actions[actions.count - 1]))
            }
            let action = try FluxStandardAction<R.Action>.decode(value, payloadless: payloadless)
            decoded.keep(action, body: actionJSON)
            return .success(bind([], action))
        } catch {
            return .failure(ActionErrorMessage.apiError(for: error, actionTypes: R.actionTypes, body: actionJSON))
        }
    }

    func decodeClientMessage(_ message: JSONObject) -> ClientMessage {
        ClientMessageDecoding.decode(message, actionTypes: R.actionTypes, payloadless: payloadless) { bind(last: $0) }
    }

    /// Binds actions (one, or a batch from a JSON array, enqueued in order) to this store; replies concern the last.
    private func bind(leading: ArraySlice<R.Action> = [], last: R.Action) -> PreparedAction {
        PreparedAction { [self] waiter, note in submit(leading, last, note: note, waiter) }
    }

    func submit(
        _ leading: ArraySlice<R.Action>, _ last: R.Action, note: IdempotencyNote?, _ waiter: PreparedAction.Waiter
    ) {
        // interval/off: while writing fails, memory must not run further ahead of the disk.
        if let failure = persistence?.durability.failure {
            let error = APIError.storageUnavailable(failure)
            switch waiter {
            case .reduced(let reply): reply(.failure(error))
            case .settled(_, let reply): reply(.failure(error))
            }
            return
        }
        for action in leading { store.enqueue(action) }
        switch waiter {
        case .reduced(let reply):
            let notWritten: (@Sendable (any Error) -> Void)? =
                journaled ? { @Sendable error in reply(.failure(.notWritten(error))) } : nil
            store.enqueue(
                last, note: note,
                handledOrDropped: { snapshot in
                    if let snapshot { reply(.success(self.encode(snapshot))) }
                },
                notWritten: notWritten)
        case .settled(let timeout, let reply):
            let notWritten: (@Sendable (any Error) -> Void)? =
                journaled ? { @Sendable error in reply(.failure(.notWritten(error))) } : nil
            store.enqueueAndSettle(last, timeout: timeout, note: note, notWritten: notWritten) { result in
                switch result {
                case .success(let snapshot): reply(.success(.settled(self.encode(snapshot))))
                case .failure(let timeout): reply(.success(.timedOut(self.encode(timeout.snapshot))))
                }
            }
        }
    }

    /// The snapshot's state as JSON, from the cache when this version was already encoded.
    private func encode(_ snapshot: Snapshot<R.State>) -> StateReply {
        cached.withLock { Self.encode(snapshot, in: &$0).reply }
    }

    /// The snapshot's state as JSON and, when its state holds chunked arrays and the version before it was the last
    /// one streamed, the RFC 6902 ops from that version (``JSONCoding/JSONIncrementalEncoding/patch(from:to:)``:
    /// found without parsing or diffing the state) and the bytes both texts are known to share at their ends
    /// (``JSONCoding/JSONIncrementalEncoding/sharedEnds(_:_:)``, for the history's delta). The observer's path, in
    /// version order.
    private func encodeForStream(
        _ snapshot: Snapshot<R.State>
    ) -> (reply: StateReply, patch: [UInt8]?, sharedEnds: (prefix: Int, suffix: Int)) {
        cached.withLock { encodings in
            let (reply, traced) = Self.encode(snapshot, in: &encodings)
            guard let incremental = encodings.incremental else { return (reply, nil, (0, 0)) }
            defer { incremental.streamed = traced.map { (snapshot.version, $0.forgettingText()) } }
            guard let traced, let previous = incremental.streamed, previous.version &+ 1 == snapshot.version else {
                return (reply, nil, (0, 0))
            }
            return (
                reply, JSONIncrementalEncoding.patch(from: previous.encoding, to: traced),
                JSONIncrementalEncoding.sharedEnds(previous.encoding, traced)
            )
        }
    }

    /// Encodes the store's first state into `cached` as the last one streamed (so the first change's patch is found
    /// incrementally too) and returns its JSON.
    private static func seed(_ cached: Locked<Encodings>, _ snapshot: Snapshot<R.State>) -> [UInt8] {
        cached.withLock { encodings in
            let (reply, traced) = encode(snapshot, in: &encodings)
            encodings.incremental?.streamed = traced.map { (snapshot.version, $0.forgettingText()) }
            return reply.state
        }
    }

    /// Encodes (through the cache once the state was found to hold chunked arrays) unless `encodings` holds this
    /// version already.
    private static func encode(
        _ snapshot: Snapshot<R.State>, in encodings: inout Encodings
    ) -> (reply: StateReply, traced: JSONIncrementalEncoding?) {
        if let hit = encodings.reply, hit.version == snapshot.version { return (hit, encodings.incremental?.traced) }
        let encoding: JSONIncrementalEncoding?
        if let incremental = encodings.incremental {
            encoding = try? incremental.cache.encode(snapshot.state)
        } else {
            var probe = JSONEncodeCache()  // encodes plainly unless the state holds a chunked array
            encoding = try? probe.encode(snapshot.state)
            if probe.isCaching { encodings.incremental = IncrementalEncodings(cache: probe) }
        }
        let reply = StateReply(version: snapshot.version, state: encoding?.bytes ?? Array("null".utf8))
        let traced = encoding?.isIncremental == true ? encoding : nil
        if (encodings.reply?.version ?? 0) <= reply.version {
            encodings.reply = reply
            encodings.incremental?.traced = traced
        }
        return (reply, traced)
    }

    /// A state as JSON: sorted keys, so one state always has the same bytes.
    static func encode(_ state: R.State) -> [UInt8] {
        (try? JSONBytesEncoder().encode(state)) ?? Array("null".utf8)
    }
}
