import JSON
import UVLoop

/// `action` messages: submitted to their store in the order received, answered (ack or error) in that order too
/// (``AnswerQueue``), once reduced or, with `"wait":"settled"`, once the action and every effect it started have
/// finished (or its `timeout_ms` passed).
extension WebSocketSession {
    /// A `"wait":"settled"` action whose answer is not ready yet: what a shutdown needs to answer it at once.
    struct SettleWait {
        let ref: String?
        let store: HostedStore
    }

    /// A ticket for an `action` message (its answer goes out in arrival order); reading pauses while
    /// ``maxActionsInFlight`` messages await their answer.
    func takeTicket() -> UInt64 {
        let ticket = answers.take()
        if answers.waiting >= Self.maxActionsInFlight { connection.stopReading() }
        return ticket
    }

    /// The answer to the `action` message of `ticket` is ready: sent in its turn (dropped once the connection is
    /// closing); reading resumes when the answers sent bring the waiting ones under the limit.
    func answer(_ ticket: UInt64, _ message: [UInt8]) {
        context.loop.assertInLoop()
        guard state == .open else { return }
        let wasFull = answers.waiting >= Self.maxActionsInFlight
        answers.ready(ticket, message) { sendMessage($0) }
        if wasFull, answers.waiting < Self.maxActionsInFlight { updateReading() }
    }

    /// Decodes and submits one `action` message to `store`, answering under `ticket`.
    func handleAction(_ message: JSONObject, in store: HostedStore, ticket: UInt64) {
        switch store.decodeClientMessage(message) {
        case .invalid(let ref, let error):
            answer(ticket, WireMessage.error(ref: ref, error))
        case .action(let ref, let id, let fingerprint, let wait, let action):
            guard access.allows(.write, on: store.name) else {
                return answer(ticket, WireMessage.error(ref: ref, .forbidden(.write, store: store.name)))
            }
            var note: IdempotencyNote?
            var gate: IdempotencyGate?
            if let id {
                let waiter: (IdempotencyCache.Outcome) -> Void = { [self] outcome in
                    answered(ticket, ref: ref, wait: wait, outcome, replayed: true)
                }
                switch IdempotencyGate.begin(
                    key: id, field: "id", fingerprint: fingerprint, store: store, on: context.loop, waiter: waiter)
                {
                case .run(let started, let journaled):
                    gate = started
                    note = journaled
                case .waiting: return
                case .replay(let outcome): return answered(ticket, ref: ref, wait: wait, outcome, replayed: true)
                case .refused(let error): return answer(ticket, WireMessage.error(ref: ref, error))
                }
            }
            if case .settled(let timeout) = wait {
                return settle(action, timeout, ticket: ticket, ref: ref, note: note, gate: gate, store: store)
            }
            let loop = context.loop
            let started = gate
            action.submit(note: note) { [self] result in
                loop.execute { [self] in
                    switch result {
                    case .success(let reply):
                        // After this loop's subscribers got the version (a sliced fan-out may still be delivering it).
                        store.fanout.afterDelivery(of: reply.version, on: loop) { [self] in
                            // This action's ack first, then repeats of its id that waited (on this socket: in send order).
                            answer(ticket, WireMessage.ack(ref: ref, version: reply.version))
                            started?.complete(with: .reduced(reply))
                        }
                    case .failure(let error):
                        answer(ticket, WireMessage.error(ref: ref, error))
                        started?.complete(with: .failed(error))
                    }
                }
            }
        }
    }

    /// `"wait":"settled"`: submits the action and answers once it and its effects finished (`"settled":true` ack),
    /// or with `settle_timeout` and the version at the deadline; a shutdown answers it at once (``cutSettleWaits()``).
    private func settle(
        _ action: PreparedAction, _ timeout: Duration, ticket: UInt64, ref: String?, note: IdempotencyNote?,
        gate: IdempotencyGate?, store: HostedStore
    ) {
        let wait = ActionWait.settled(timeout)
        if context.isShuttingDown {
            answer(ticket, Self.shutdownError(ref: ref, store))  // the action is submitted all the same
        } else {
            settleWaits[ticket] = SettleWait(ref: ref, store: store)
        }
        let loop = context.loop
        action.submitAndSettle(timeout, note: note) { [self] result in
            loop.execute { [self] in
                // Answered unless a shutdown answered it already; then the key records the outcome.
                func finish(_ outcome: IdempotencyCache.Outcome) {
                    if settleWaits.removeValue(forKey: ticket) != nil { answered(ticket, ref: ref, wait: wait, outcome) }
                    gate?.complete(with: outcome)
                }
                switch result {
                case .success(.settled(let reply)):
                    // The state messages up to that version go first.
                    store.fanout.afterDelivery(of: reply.version, on: loop) { finish(.reduced(reply)) }
                case .success(.timedOut(let reply)):
                    store.fanout.afterDelivery(of: reply.version, on: loop) { finish(.timedOut(reply)) }
                case .failure(let error):
                    finish(.failed(error))
                }
            }
        }
    }

    /// Answers an action with its outcome (`replayed`: an idempotency key's earlier outcome): an ack (`"settled":true`
    /// after a settled wait), `settle_timeout` with the version at the deadline, or the error that kept it from being
    /// applied.
    private func answered(
        _ ticket: UInt64, ref: String?, wait: ActionWait, _ outcome: IdempotencyCache.Outcome, replayed: Bool = false
    ) {
        switch outcome {
        case .reduced(let reply):
            answer(ticket, WireMessage.ack(ref: ref, version: reply.version, settled: wait.isSettled, replayed: replayed))
        case .timedOut(let reply):
            answer(ticket, WireMessage.error(
                ref: ref, .settleTimeout(ms: wait.timeoutMs), version: reply.version, replayed: replayed))
        case .failed(let error):
            answer(ticket, WireMessage.error(ref: ref, error))
        }
    }

    /// Shutdown: every settled wait is answered now with `shutting_down` and the store's version (its action is
    /// reduced all the same), then every answer held for its turn goes, before the Close (no data may follow it).
    func cutSettleWaits() {
        context.loop.assertInLoop()
        guard state == .open else { return }
        let waits = settleWaits.sorted { $0.key < $1.key }
        settleWaits = [:]
        for (ticket, wait) in waits {
            answers.ready(ticket, Self.shutdownError(ref: wait.ref, wait.store)) { sendMessage($0) }
        }
        answers.flush { sendMessage($0) }
    }

    /// `{"type":"error","ref":…,"code":"shutting_down",…,"version":N}`: a settled wait cut short by shutdown.
    private static func shutdownError(ref: String?, _ store: HostedStore) -> [UInt8] {
        WireMessage.error(ref: ref, .shuttingDownWhileSettling, version: store.fanout.newest.version)
    }
}
