import HTTP1
import UVLoop

extension HTTPSession {
    /// `POST /stores/{name}/actions`: submits the action (or batch) and answers once it is reduced, or settled with
    /// `?wait=settled`; an `Idempotency-Key` replays the first outcome of its action.
    func post(_ request: HTTPRequest, to store: any HostedStore) {
        let wait: PostWait
        do {
            wait = try PostWait(QueryParameters(request.query))
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
        let answer = PostAnswer(session: self, keepAlive: request.keepAlive, storeName: store.name, wait: wait)
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
}

/// What one `POST` of an action needs to answer it once the store has: one object per request, which the completion
/// closures capture alone (a closure capturing several values would need a context allocation of its own).
///
/// ## Thread safety
/// Made and answered on the session's loop thread. ``completed(_:)`` runs on the store's executor, which may be
/// another thread: then it stores the outcome and hands the object to the loop with `EventLoop.execute`, whose queue
/// lock orders the store before the loop's read; on the session's loop it answers directly.
final class PostAnswer: @unchecked Sendable {
    private let session: HTTPSession
    private let keepAlive: Bool
    private let storeName: String
    private let wait: PostWait
    /// The way of the request's `Idempotency-Key`, if it has a new one (set before the action is submitted).
    var gate: IdempotencyGate?
    /// The store's outcome, set by ``completed(_:)`` before the loop reads it in ``deliver()``.
    private var outcome: IdempotencyCache.Outcome?

    init(session: HTTPSession, keepAlive: Bool, storeName: String, wait: PostWait) {
        self.session = session
        self.keepAlive = keepAlive
        self.storeName = storeName
        self.wait = wait
    }

    /// The store has reduced (or settled) the action; called on the store's executor. A store on the session's own
    /// loop answers at once (nothing in an answer calls back into a store synchronously); one elsewhere hands over.
    func completed(_ result: Result<IdempotencyCache.Outcome, APIError>) {
        switch result {
        case .success(let outcome): self.outcome = outcome
        case .failure(let error): self.outcome = .failed(error)
        }
        let loop = session.context.loop
        if loop.isInLoop { return deliver() }
        loop.execute { [self] in deliver() }
    }

    /// On the loop: answers, then records the outcome for the key, if any (answering the duplicates that waited).
    private func deliver() {
        guard let outcome else { return }
        answer(outcome, replayed: false)
        gate?.complete(with: outcome)
    }

    /// Answers the request with `outcome` (loop thread); `replayed` marks an outcome an `Idempotency-Key` replays.
    func answer(_ outcome: IdempotencyCache.Outcome, replayed: Bool) {
        let replay = replayed ? [HTTPField(name: "Idempotent-Replayed", value: "true")] : []
        switch outcome {
        case .reduced(let reply):
            session.finish(Responses.json(200, WireMessage.storeState(store: storeName, reply), fields: replay), keepAlive: keepAlive)
        case .timedOut(let reply):
            let timeout: Duration = if case .settled(let limit) = wait { limit } else { .zero }
            session.finish(
                Responses.json(408, WireMessage.settleTimeout(store: storeName, reply, timeout: timeout), fields: replay),
                keepAlive: keepAlive)
        case .failed(let error):
            session.finish(Responses.error(error), keepAlive: keepAlive)
        }
    }
}
