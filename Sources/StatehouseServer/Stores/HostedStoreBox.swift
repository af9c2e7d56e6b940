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
    private let cacheLock = NSLock()
    private var cached: StateReply?

    init(name: String, reducerName: String, state: R.State, fanout: StoreFanout? = nil) {
        self.name = name
        self.reducerName = reducerName
        self.fanout = fanout ?? StoreFanout(storeName: name)
        store = Store(reducer: R(), state: state, name: name) { line in
            Log.shared.warning(line)
        }
    }

    func start() async {
        // One observer per store: a change is encoded (once) only while someone subscribes.
        _ = await store.observe { [self] snapshot in
            guard fanout.hasSubscribers else { return }
            fanout.broadcast(version: snapshot.version, message: Envelope.stateMessage(store: name, encode(snapshot)))
        }
        _ = await store.observeEvents { [self] event in
            guard fanout.hasSubscribers else { return }
            guard let fsa = FluxStandardActionEncoding.encode(event) else {
                Log.shared.warning("store \(name): an event of type \(type(of: event)) is not an enum case; not sent")
                return
            }
            fanout.broadcastEvent(Envelope.event(store: name, fsa))
        }
        await store.start()
    }

    func reset(reply: @escaping @Sendable (StateReply) -> Void) {
        store.enqueueReset { [self] snapshot in reply(encode(snapshot)) }
    }

    func read() async -> StateReply { encode(await store.snapshot) }

    func version() async -> UInt64 { await store.version }

    func prepare(actionJSON: [UInt8]) -> Result<PreparedAction, APIError> {
        do {
            let action = try JSONDecoder().decode(FluxStandardAction<R.Action>.self, from: Data(actionJSON)).action
            return .success(bind(action))
        } catch {
            return .failure(ActionErrorMessage.apiError(for: error, actionTypes: R.actionTypes, body: actionJSON))
        }
    }

    func decodeClientMessage(_ text: [UInt8]) -> ClientMessage {
        ClientMessageDecoding.decode(text, actionTypes: R.actionTypes, as: R.Action.self) { bind($0) }
    }

    private func bind(_ action: R.Action) -> PreparedAction {
        PreparedAction(
            submit: { [self] reply in
                store.enqueue(action) { snapshot in reply(self.encode(snapshot)) }
            },
            submitAndSettle: { [self] timeout, reply in
                store.enqueueAndSettle(action, timeout: timeout) { result in
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(snapshot.state)).map(Array.init) ?? Array("null".utf8)
        let reply = StateReply(version: snapshot.version, state: json)
        cacheLock.withLock {
            if (cached?.version ?? 0) <= reply.version { cached = reply }
        }
        return reply
    }
}
