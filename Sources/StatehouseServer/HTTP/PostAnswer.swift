import HTTP1
import UVLoop

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
    private let wait: ActionWait
    /// `minimal`: the answer leaves the state out (`Prefer: return=minimal`).
    private let returning: ReturnPreference
    /// The way of the request's `Idempotency-Key`, if it has a new one (set before the action is submitted).
    var gate: IdempotencyGate?
    /// The store's outcome, set by ``completed(_:)`` before the loop reads it in ``deliver()``.
    private var outcome: IdempotencyCache.Outcome?

    init(session: HTTPSession, keepAlive: Bool, storeName: String, wait: ActionWait, returning: ReturnPreference) {
        session.context.loop.assertInLoop()
        self.returning = returning
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
        session.context.loop.assertInLoop()
        guard let outcome else { return }
        answer(outcome, replayed: false)
        gate?.complete(with: outcome)
    }

    /// Answers the request with `outcome` (loop thread); `replayed` marks an outcome an `Idempotency-Key` replays.
    func answer(_ outcome: IdempotencyCache.Outcome, replayed: Bool) {
        session.context.loop.assertInLoop()
        let replay = replayed ? [HTTPField(name: "Idempotent-Replayed", value: "true")] : []
        let minimal = returning == .minimal
        switch outcome {
        case .reduced(let reply):
            let fields = replay + returning.appliedFields
            if minimal {
                let body = WireMessage.storeVersion(store: storeName, version: reply.version)
                session.finish(Responses.json(200, body, fields: fields), keepAlive: keepAlive)
            } else {
                // The envelope and the state written straight into the response's buffer.
                session.finish(
                    Responses.json(200, [], fields: fields), body: StoreStateBody(store: storeName, reply),
                    keepAlive: keepAlive)
            }
        case .timedOut(let reply):
            let timeout: Duration = if case .settled(let limit) = wait { limit } else { .zero }
            session.finish(
                Responses.json(
                    408, WireMessage.settleTimeout(store: storeName, reply, timeout: timeout, withState: !minimal),
                    fields: replay + returning.appliedFields),
                keepAlive: keepAlive)
        case .failed(let error):
            session.finish(Responses.error(error), keepAlive: keepAlive)
        }
    }
}
