/// Identifies one *run*: one execution of an effect (or of a cancellable part of one) in a store.
///
/// Allocated from a per-store counter; never reused within a store.
struct RunID: Hashable, Sendable {
    let rawValue: UInt64
}

/// The bookkeeping for one live run.
///
/// A run is live from its creation until it is cancelled or its work is finished. Its work is
/// counted in `pending`: its own task (if any), each `.just` action it enqueued directly and not yet
/// reduced, each live child run, and a creation hold while the store is still starting it. The run
/// finishes when the count reaches zero.
struct RunRecord: Sendable {
    /// The enclosing run; `nil` for a run started directly by a reduce or by `bind()`.
    let parent: RunID?
    /// The cancellation id the run is registered under, if it is cancellable.
    let effectID: EffectID?
    /// The settle group the run's work counts towards (inherited from the parent).
    let group: SettleGroupID?
    /// Whether the run is part of ``Reducer/bind()``'s work (started by it, or nested in such a run): its task does
    /// not keep the store from being idle.
    let fromBind: Bool
    /// Outstanding work items (see the type's documentation).
    var pending: Int
    /// Live runs started inside this one.
    var children: Set<RunID> = []
}
