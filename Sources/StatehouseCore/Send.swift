/// The handle an effect uses to feed actions back into its store.
///
/// Passed to the body of ``Effect/sequence(_:catch:)``. Calling it enqueues the action in the store's
/// mailbox (FIFO with every other enqueue) tagged with the effect's run, and suspends until the
/// action has been reduced, or dropped because the run was cancelled (``Effect/cancel(_:)``).
/// If the calling task is already cancelled, it returns at once and enqueues nothing.
///
/// It holds its store weakly (see "Lifetime" on ``Store``): a `sequence` waiting for its next value
/// does not keep a released store alive; the store's release cancels the effect, and a send after it
/// returns at once.
///
/// ```swift
/// .sequence { send in
///     for await reading in sensor.readings { await send(.reading(reading)) }
/// }
/// ```
///
/// ## Thread safety
/// `Sendable`; may be called from any task, but is meant for the effect it was given to.
public struct Send<Action: Sendable>: Sendable {
    private let body: @Sendable (Action) async -> Void

    /// Creates a send handle from the closure that delivers an action.
    ///
    /// - Parameter body: Delivers one action and returns once it is reduced or dropped.
    package init(_ body: @escaping @Sendable (Action) async -> Void) {
        self.body = body
    }

    /// Sends an action produced by an effect; returns once it has been reduced (or dropped because
    /// its effect was cancelled).
    ///
    /// - Parameter action: The action to reduce.
    public func callAsFunction(_ action: Action) async {
        await body(action)
    }
}
