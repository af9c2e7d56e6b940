extension Store {
    /// One mailbox entry: what to do, where it came from, and who waits for it.
    struct Envelope: Sendable {
        /// What the entry asks the store to do.
        enum Payload: Sendable {
            /// Reduce an action.
            case action(R.Action)
            /// Deliver an event emitted by a running effect (see ``Effect/emit(_:)``).
            case event(any Sendable)
            /// Start ``Reducer/bind()`` (see ``Store/start()``): the first envelope of a store made with `startsAtInit`.
            case start
            /// Reset the store (see ``Store/enqueueReset(_:completion:notWritten:)``).
            case reset(ResetMode)
            /// Stop the store for good (see ``Store/enqueueStop(completion:)``).
            case stop
        }

        /// What to do.
        let payload: Payload
        /// The effect run that produced it; `nil` for entries from outside, or for a top-level
        /// ``Effect/just(_:)``.
        var origin: RunID?
        /// Whether this envelope holds a reference on `origin` (`.just` inside a cancellable) that
        /// must be released once it is handled or dropped.
        var holdsRun = false
        /// Whether an effect produced it (reported to taps).
        var fromEffect = false
        /// The store's reset epoch when an effect produced it; a top-level `.just` from before a
        /// reset is dropped (entries with an `origin` are dropped through their run instead).
        var epoch: UInt64 = 0
        /// The settle group this envelope holds one count on until it is handled or dropped.
        var group: SettleGroupID?
        /// Set by ``Store/enqueueAndSettle(_:timeout:completion:)``: opens a settle group.
        var settle: SettleRequest?
        /// Called on the actor right after handling with the snapshot, or with `nil` if dropped.
        var completion: (@Sendable (Snapshot<R.State>?) -> Void)?
        /// Journaled stores: the action's note and `notWritten` handler; nil for most envelopes (one word).
        var journal: JournalTag?

        var note: (any AnyObject & Sendable)? { journal?.note }
        var notWritten: (@Sendable (any Error) -> Void)? { journal?.notWritten }
    }

    /// What a journaled store's sender attaches to an action: a note that travels into its ``JournalRecord`` (e.g. an
    /// idempotency key) and the handler called instead of its completion when its batch could not be written.
    ///
    /// ## Thread safety
    /// Immutable.
    final class JournalTag: Sendable {
        let note: (any AnyObject & Sendable)?
        let notWritten: (@Sendable (any Error) -> Void)?

        init(note: (any AnyObject & Sendable)?, notWritten: (@Sendable (any Error) -> Void)?) {
            self.note = note
            self.notWritten = notWritten
        }

        /// A tag, or nil when there is nothing to attach.
        static func make(note: (any AnyObject & Sendable)?, notWritten: (@Sendable (any Error) -> Void)?) -> JournalTag? {
            note == nil && notWritten == nil ? nil : JournalTag(note: note, notWritten: notWritten)
        }
    }

    /// Whether `envelope` must be dropped: its run was cancelled, or it is a top-level effect
    /// action from before the last reset.
    func isStale(_ envelope: Envelope) -> Bool {
        if let origin = envelope.origin { return !isLive(origin) }
        return envelope.fromEffect && envelope.epoch != resetEpoch
    }

    /// Releases the run and settle-group counts an envelope holds.
    func releaseHolds(of envelope: Envelope) {
        if envelope.holdsRun, let origin = envelope.origin {
            release(origin)
        }
        if let group = envelope.group {
            releaseGroup(group)
        }
    }
}
