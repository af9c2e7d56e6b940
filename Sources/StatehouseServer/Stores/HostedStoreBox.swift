import Foundation
import JSONCoding
import JSONPatch
import StatehouseCore

/// Hosts one `Store<R>` behind the type-erased ``HostedStore`` API.
///
/// The state is encoded to JSON at most once per version: the broadcast to WebSocket subscribers and the replies to
/// actions share one cached encoding.
///
/// ## Thread safety
/// Sendable: immutable references plus a lock around the encoding cache.
final class HostedStoreBox<R: ServableReducer>: HostedStore, @unchecked Sendable {
    let name: String
    let reducerName: String
    let fanout: StoreFanout
    private let store: Store<R>
    /// Guards `cached` and `idempotencyCache`.
    private let cacheLock = NSLock()
    private var cached: StateReply?
    private var idempotencyCache: IdempotencyCache?

    /// Made on the first keyed action (any loop may ask first), so a store that never sees an idempotency key
    /// never has one.
    var idempotency: IdempotencyCache {
        cacheLock.withLock {
            if let cache = idempotencyCache { return cache }
            let cache = IdempotencyCache()
            idempotencyCache = cache
            return cache
        }
    }

    init(name: String, reducerName: String, state: R.State, historySize: Int, executor: (any StoreExecutor)?) {
        self.name = name
        self.reducerName = reducerName
        fanout = StoreFanout(storeName: name, historySize: historySize, initialJSON: Self.encode(state))
        store = Store(reducer: R(), state: state, name: name, logger: { line in Log.shared.warning(line) }, executor: executor)
    }

    func start() async {
        // One observer per store: each new state is encoded once, kept in the history, and streamed.
        _ = await store.observe { [self] snapshot in
            fanout.stateChanged(version: snapshot.version, json: encode(snapshot).state)
        }
        _ = await store.observeEvents { [self] event in
            guard let fsa = FluxStandardActionEncoding.encode(event) else {
                Log.shared.warning("store \(name): an event of type \(type(of: event)) is not an enum case; not sent")
                return
            }
            fanout.eventEmitted(fsa)
        }
        await store.start()
    }

    func stop(done: @escaping @Sendable () -> Void) {
        store.enqueueStop { _ in done() }
    }

    func reset(reply: @escaping @Sendable (StateReply) -> Void) {
        store.enqueueReset { [self] snapshot in reply(encode(snapshot)) }
    }

    func read() -> StateReply {
        let newest = fanout.newest
        return StateReply(version: newest.version, state: newest.json)
    }

    func prepare(actionJSON: [UInt8]) -> Result<PreparedAction, APIError> {
        do {
            let value: JSONValue
            do {
                value = try JSONValue(parsing: actionJSON)
            } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not JSON", underlyingError: error))
            }
            if case .array(let elements) = value {
                guard !elements.isEmpty else {
                    return .failure(APIError(status: 400, code: "invalid_action", message: "The array holds no action; send at least one."))
                }
                var actions: [R.Action] = []
                actions.reserveCapacity(elements.count)
                for (index, element) in elements.enumerated() {
                    do {
                        actions.append(try FluxStandardAction<R.Action>.decode(element))
                    } catch let error as DecodingError {
                        throw error.prefixingPath(with: PositionKey(index))
                    }
                }
                return .success(bind(actions))
            }
            return .success(bind([try FluxStandardAction<R.Action>.decode(value)]))
        } catch {
            return .failure(ActionErrorMessage.apiError(for: error, actionTypes: R.actionTypes, body: actionJSON))
        }
    }

    func decodeClientMessage(_ message: JSONObject) -> ClientMessage {
        ClientMessageDecoding.decode(message, actionTypes: R.actionTypes, as: R.Action.self) { bind([$0]) }
    }

    /// Binds actions (one, or a batch from a JSON array, enqueued in order) to this store; replies concern the last.
    private func bind(_ actions: [R.Action]) -> PreparedAction {
        let leading = actions.dropLast()
        let last = actions[actions.count - 1]
        return PreparedAction(
            submit: { [self] reply in
                for action in leading { store.enqueue(action) }
                store.enqueue(last) { snapshot in reply(self.encode(snapshot)) }
            },
            submitAndSettle: { [self] timeout, reply in
                for action in leading { store.enqueue(action) }
                store.enqueueAndSettle(last, timeout: timeout) { result in
                    switch result {
                    case .success(let snapshot): reply(.settled(self.encode(snapshot)))
                    case .failure(let timeout): reply(.timedOut(self.encode(timeout.snapshot)))
                    }
                }
            })
    }

    /// The snapshot's state as JSON, from the cache when this version was already encoded.
    private func encode(_ snapshot: Snapshot<R.State>) -> StateReply {
        if let hit = cacheLock.withLock({ cached }), hit.version == snapshot.version { return hit }
        let reply = StateReply(version: snapshot.version, state: Self.encode(snapshot.state))
        cacheLock.withLock {
            if (cached?.version ?? 0) <= reply.version { cached = reply }
        }
        return reply
    }

    /// A state as JSON: sorted keys, so one state always has the same bytes.
    static func encode(_ state: R.State) -> [UInt8] {
        (try? JSONBytesEncoder().encode(state)) ?? Array("null".utf8)
    }
}
