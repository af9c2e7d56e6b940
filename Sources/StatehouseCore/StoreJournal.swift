/// Where a store writes what it reduced, one batch at a time: how a host makes a store durable.
///
/// A store with a journal groups the envelopes one drain slice handles into a *batch*. At the batch's end (the slice
/// ends, the mailbox is empty, right after a reset, or before a stop) the store hands ``write`` one
/// ``JournalRecord``: every state change of the batch in reduce order, the notes of the actions that carried one,
/// and the state at the batch's end.
///
/// With ``gatesOutput`` (an *output gate*, as in Cloudflare Durable Objects) nothing that depends on the batch leaves
/// the store before `done(nil)`: state observers, the completions of its actions (replies), settle completions and
/// events wait, and the store reduces nothing else meanwhile; actions sent meanwhile queue and form the next batch
/// (group commit). `done(error)` undoes the batch: the state and version go back to what they were before it, its
/// actions' `notWritten` handlers get the error (their plain completions get `nil`, as for a dropped action),
/// observers never see its versions, the effects its reduces started are cancelled and the follow-up actions they
/// queued are dropped. Without ``gatesOutput`` outputs leave at once and `done` is only awaited by nothing: the host
/// then owns what a failed write means.
///
/// ## Thread safety
/// `write` is called on the store's actor; `done` may be called from any thread, once.
public struct StoreJournal<Action: Sendable, State: Sendable>: Sendable {
    /// Whether outputs wait for each batch's `done`.
    public let gatesOutput: Bool
    /// Writes one batch; calls `done` once it is durable (`nil`) or failed.
    public let write: @Sendable (_ record: JournalRecord<Action, State>, _ done: @escaping @Sendable ((any Error)?) -> Void) -> Void

    public init(
        gatesOutput: Bool,
        write: @escaping @Sendable (JournalRecord<Action, State>, @escaping @Sendable ((any Error)?) -> Void) -> Void
    ) {
        self.gatesOutput = gatesOutput
        self.write = write
    }
}

/// One batch of a journaled store: what changed, in reduce order.
public struct JournalRecord<Action: Sendable, State: Sendable>: Sendable {
    /// One change of state: the version it made and what made it.
    public struct Change: Sendable {
        /// What made a change.
        public enum Cause: Sendable {
            /// An action; `fromEffect` when an effect sent it.
            case action(Action, fromEffect: Bool)
            /// A reset restored `state`, the initial state (``ResetMode/restoringInitialState``; a reset that keeps the
            /// state writes no change).
            case reset(State)
        }

        /// The store's version right after the change.
        public let version: UInt64
        public let cause: Cause
    }

    /// An action enqueued with a `note` (e.g. an idempotency key), whether or not it changed the state.
    public struct Noted: Sendable {
        public let note: any AnyObject & Sendable
        /// The version and state right after the action.
        public let snapshot: Snapshot<State>
    }

    /// The batch's changes, versions ascending by exactly 1 from the version before the batch.
    public internal(set) var changes: [Change] = []
    /// The noted actions of the batch, in reduce order.
    public internal(set) var noted: [Noted] = []
    /// The state and version at the batch's end.
    public internal(set) var snapshot: Snapshot<State>
    /// Whether the batch ends with a reset (its last change).
    public internal(set) var endsWithReset = false

    /// Whether the batch has nothing to write.
    public var isEmpty: Bool { changes.isEmpty && noted.isEmpty }
}
