import HTTP1
import UVLoop

/// Actions over HTTP: `POST /stores/{name}/actions` (one path for idempotency keys: ``IdempotencyGate``) and `/reset`.
extension HTTPSession {
    /// `POST /stores/{name}/actions`: submits the action (or batch) and answers once it is reduced, or settled with
    /// `?wait=settled`; an `Idempotency-Key` replays the first outcome of its action. `Prefer: return=minimal`
    /// (RFC 7240 §4.2) leaves the state out of the answer.
    func post(_ request: HTTPRequest, to store: HostedStore) {
        let wait: ActionWait
        do {
            wait = try ActionWait(QueryParameters(request.query))
        } catch {
            send(error: error, keepAlive: request.keepAlive, headOnly: false)
            return
        }
        let action: PreparedAction
        switch store.prepare(actionJSON: request.body) {
        case .failure(let error):
            send(error: error, keepAlive: request.keepAlive, headOnly: false)
            return
        case .success(let prepared):
            action = prepared
        }
        let answer = PostAnswer(
            session: self, keepAlive: request.keepAlive, storeName: store.name, wait: wait,
            returning: request.fields["Prefer"] == nil ? .representation : ReturnPreference(request.fields))
        var note: IdempotencyNote?
        if let key = request.fields["Idempotency-Key"] {
            let waiter: (IdempotencyCache.Outcome) -> Void = { [answer] in answer.answer($0, replayed: true) }
            switch IdempotencyGate.begin(
                key: key, field: "Idempotency-Key", fingerprint: StableFingerprint.of(post: request.body, wait: wait),
                store: store, on: context.loop, waiter: waiter)
            {
            case .run(let gate, let journaled):
                answer.gate = gate
                note = journaled
            case .waiting: return
            case .replay(let outcome): return answer.answer(outcome, replayed: true)
            case .refused(let error): return send(error: error, keepAlive: request.keepAlive, headOnly: false)
            }
        }
        // Each closure captures the answer object alone, so it needs no context of its own.
        switch wait {
        case .reduced:
            action.submit(note: note) { [answer] result in answer.completed(result.map { .reduced($0) }) }
        case .settled(let timeout):
            // Held before submitting (a store on this loop may answer inside submit); answered at once when shutting
            // down or the client is gone, and the action is submitted all the same.
            _ = holdLongPoll { [unowned self] why in
                send(Self.cutShort(why, store, "before the effects of this action finished (it is reduced all the same)"),
                    keepAlive: false, headOnly: false)
            }
            action.submitAndSettle(timeout, note: note) { [answer] result in
                switch result {
                case .success(.settled(let reply)): answer.completed(.success(.reduced(reply)))
                case .success(.timedOut(let reply)): answer.completed(.success(.timedOut(reply)))
                case .failure(let error): answer.completed(.failure(error))
                }
            }
        }
    }

    /// `POST /stores/{name}/reset`: answers once the store is back at its initial state.
    func reset(_ request: HTTPRequest, _ store: HostedStore) {
        let loop = context.loop
        store.reset { [self] result in
            let response = switch result {
            case .success(let reply): Responses.json(200, WireMessage.storeState(store: store.name, reply))
            case .failure(let error): Responses.error(error)
            }
            loop.execute { [self] in finish(response, keepAlive: request.keepAlive, headOnly: false) }
        }
    }
}
