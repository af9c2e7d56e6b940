/// Identifies one settle group: the work caused by one action sent with
/// `Store.enqueueAndSettle(_:timeout:completion:)`. Never reused within a store.
struct SettleGroupID: Hashable, Sendable {
    let rawValue: UInt64
}

extension Store {
    /// What `enqueueAndSettle` hands to the mailbox; the group opens when the action is reduced.
    struct SettleRequest: Sendable {
        /// The deadline as an offset on the store's clock (see `StoreClock`).
        let deadline: Duration
        /// The timeout the caller gave (reported in ``SettleTimeout``).
        let timeout: Duration
        /// Called once on the actor: settled, or timed out.
        let completion: @Sendable (Result<Snapshot<R.State>, SettleTimeout<R.State>>) -> Void
        /// Journaled stores: called instead of `completion` when the action's batch could not be written.
        var notWritten: (@Sendable (any Error) -> Void)? = nil
    }

    /// The bookkeeping of one open group.
    ///
    /// `pending` counts: the sending envelope while it is being handled, each top-level effect
    /// envelope (`.just`) of the group not yet handled, each live top-level run of the group, and
    /// each waiting throttle trailing effect of the group. Actions sent by a run are covered by the
    /// run (it stays live until they are reduced). At zero the group is settled.
    struct SettleGroup: Sendable {
        var pending: Int
        let request: SettleRequest
    }
}
