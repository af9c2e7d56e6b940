/// One action as the store handled it, reported to taps registered with `Store.tap(_:)`.
///
/// Meant for test tooling (`StatehouseTesting`): a tap sees every action taken from the mailbox, in
/// reduce order, right after its reduce and its state notification, including actions that were
/// dropped because the effect that produced them had been cancelled.
public struct ReducedAction<Action: Sendable>: Sendable {
    /// The action taken from the mailbox.
    public let action: Action
    /// `true` when an effect produced the action; `false` for ``Store/enqueue(_:completion:)``,
    /// ``Store/send(_:)`` and the settle forms.
    public let fromEffect: Bool
    /// `true` when the action was not reduced because its effect had been cancelled (or the store
    /// reset); the state is then unchanged.
    public let dropped: Bool
    /// The store's version right after this action was handled.
    public let version: UInt64

    package init(action: Action, fromEffect: Bool, dropped: Bool, version: UInt64) {
        self.action = action
        self.fromEffect = fromEffect
        self.dropped = dropped
        self.version = version
    }
}
