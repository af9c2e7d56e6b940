import Foundation
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

    init(name: String, reducerName: String, state: R.State, historySize: Int) {
        self.name = name
        self.reducerName = reducerName
        fanout = StoreFanout(storeName: name, historySize: historySize, initialJSON: Self.encode(state))
        store = Store(reducer: R(), state: state, name: name) { line in
            Log.shared.warning(line)
        }
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
            if actionJSON.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "[") {
                let actions = try JSONDecoder().decode([FluxStandardAction<R.Action>].self, from: Data(actionJSON)).map(\.action)
                guard !actions.isEmpty else {
                    return .failure(APIError(status: 400, code: "invalid_action", message: "The array holds no action; send at least one."))
                }
                return .success(bind(actions))
            }
            let action = try JSONDecoder().decode(FluxStandardAction<R.Action>.self, from: Data(actionJSON)).action
            return .success(bind([action]))
        } catch {
            return .failure(ActionErrorMessage.apiError(for: error, actionTypes: R.actionTypes, body: actionJSON))
        }
    }

    func decodeClientMessage(_ text: [UInt8]) -> ClientMessage {
        ClientMessageDecoding.decode(text, actionTypes: R.actionTypes, as: R.Action.self) { bind([$0]) }
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(state)).map(Array.init) ?? Array("null".utf8)
    }
}
