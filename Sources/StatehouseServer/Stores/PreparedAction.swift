/// A store's version with its state as JSON text.
struct StateReply: Sendable {
    var version: UInt64
    var state: [UInt8]
}

/// A decoded action bound to its store.
///
/// `submit` enqueues it at once (FIFO with every other sender) and calls `reply` on the store's actor right after
/// this action was reduced, after every observer saw the new state. `submitAndSettle` calls `reply` once the action
/// and every effect it started, transitively, have finished, or when `timeout` passes (the effects keep running).
/// A durable store in `commit` mode replies once the action is written; `.failure` when it could not be (the action
/// was then not applied), or when the store refuses actions because writing fails.
struct PreparedAction: Sendable {
    /// Who waits, and for what.
    enum Waiter: Sendable {
        /// Gets the state right after the reduce.
        case reduced(@Sendable (Result<StateReply, APIError>) -> Void)
        /// Gets the state once the action's effects finished, or at the timeout.
        case settled(timeout: Duration, @Sendable (Result<SettleOutcome, APIError>) -> Void)
    }

    /// Enqueues the action(s) and answers `waiter` (one closure for both kinds: one allocation per request); `note`
    /// (an idempotency key) is journaled with the last action.
    let run: @Sendable (_ waiter: Waiter, _ note: IdempotencyNote?) -> Void

    func submit(note: IdempotencyNote? = nil, _ reply: @escaping @Sendable (Result<StateReply, APIError>) -> Void) {
        run(.reduced(reply), note)
    }

    func submitAndSettle(
        _ timeout: Duration, note: IdempotencyNote? = nil, _ reply: @escaping @Sendable (Result<SettleOutcome, APIError>) -> Void
    ) {
        run(.settled(timeout: timeout, reply), note)
    }
}

/// How a wait for settlement ended, with the state at that moment.
enum SettleOutcome: Sendable {
    case settled(StateReply)
    case timedOut(StateReply)
}

/// A WebSocket message from a client, decoded.
enum ClientMessage: Sendable {
    /// `{"type":"action","ref":"r1","id":"k1","action":{FSA}}`; `ref`, `id` (an idempotency key) and the wait
    /// (`"wait":"settled","timeout_ms":N`) are optional. `fingerprint` identifies the action and its wait for key
    /// reuse checks (0 when there is no `id`).
    case action(ref: String?, id: String?, fingerprint: UInt64, wait: ActionWait, PreparedAction)
    /// Anything that cannot be acted on; `ref` when the message had a readable one.
    case invalid(ref: String?, APIError)
}
