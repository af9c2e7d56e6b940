import JSONCoding
import JSONPatch
import StatehouseCore

/// One `Store<R>` with the typed half of hosting it: actions decoded from JSON and bound to the store, states encoded
/// to JSON at most once per version (the broadcast and the replies share one encoding), events sent as FSAs.
///
/// ``hosted(name:reducerName:state:historySize:executor:)`` wraps it in a ``HostedStoreBox``; call it where `R` is
/// concrete (``ReducerCatalog/register(_:as:)``), so the closures it makes are compiled for `R`.
///
/// ## Thread safety
/// Sendable: immutable references plus a locked encoding cache.
final class TypedStore<R: ServableReducer>: Sendable {
    let name: String
    let fanout: StoreFanout
    let store: Store<R>
    /// Actions without payload, decoded once per type.
    let payloadless = PayloadlessActions<R.Action>()
    /// The last state encoded (every caller runs on the store's executor; the lock costs an uncontended atomic).
    private let cached = LockedValue<StateReply?>(nil)

    init(name: String, state: R.State, historySize: Int, executor: (any StoreExecutor)?) {
        self.name = name
        fanout = StoreFanout(storeName: name, historySize: historySize, initialJSON: Self.encode(state))
        store = Store(reducer: R(), state: state, name: name, logger: { line in Log.shared.warning(line) }, executor: executor)
    }

    /// A new store of `R`, hosted.
    static func hosted(
        name: String, reducerName: String, state: R.State, historySize: Int, executor: (any StoreExecutor)?
    ) -> HostedStoreBox {
        let typed = TypedStore(name: name, state: state, historySize: historySize, executor: executor)
        let operations = HostedStoreBox.Operations(
            start: { await typed.start() },
            stop: { done in typed.store.enqueueStop { _ in done() } },
            reset: { reply in typed.store.enqueueReset { snapshot in reply(typed.encode(snapshot)) } },
            prepare: { typed.prepare(actionJSON: $0) },
            decodeClientMessage: { typed.decodeClientMessage($0) })
        return HostedStoreBox(name: name, reducerName: reducerName, fanout: typed.fanout, operations: operations)
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
                return .success(bind(leading: actions.dropLast(), last: actions[actions.count - 1]))
            }
            return .success(bind(last: try FluxStandardAction<R.Action>.decode(value, payloadless: payloadless)))
        } catch {
            return .failure(ActionErrorMessage.apiError(for: error, actionTypes: R.actionTypes, body: actionJSON))
        }
    }

    func decodeClientMessage(_ message: JSONObject) -> ClientMessage {
        ClientMessageDecoding.decode(message, actionTypes: R.actionTypes, payloadless: payloadless) { bind(last: $0) }
    }

    /// Binds actions (one, or a batch from a JSON array, enqueued in order) to this store; replies concern the last.
    private func bind(leading: ArraySlice<R.Action> = [], last: R.Action) -> PreparedAction {
        PreparedAction { [self] waiter in
            for action in leading { store.enqueue(action) }
            switch waiter {
            case .reduced(let reply):
                store.enqueue(last, handledOrDropped: { snapshot in
                    if let snapshot { reply(self.encode(snapshot)) }
                })
            case .settled(let timeout, let reply):
                store.enqueueAndSettle(last, timeout: timeout) { result in
                    switch result {
                    case .success(let snapshot): reply(.settled(self.encode(snapshot)))
                    case .failure(let timeout): reply(.timedOut(self.encode(timeout.snapshot)))
                    }
                }
            }
        }
    }

    /// The snapshot's state as JSON, from the cache when this version was already encoded.
    private func encode(_ snapshot: Snapshot<R.State>) -> StateReply {
        if let hit = cached.withLock({ $0 }), hit.version == snapshot.version { return hit }
        let reply = StateReply(version: snapshot.version, state: Self.encode(snapshot.state))
        cached.withLock { cached in
            if (cached?.version ?? 0) <= reply.version { cached = reply }
        }
        return reply
    }

    /// A state as JSON: sorted keys, so one state always has the same bytes.
    static func encode(_ state: R.State) -> [UInt8] {
        (try? JSONBytesEncoder().encode(state)) ?? Array("null".utf8)
    }
}
