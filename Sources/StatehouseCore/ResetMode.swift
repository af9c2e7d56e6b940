/// What a store reset (``Store/enqueueReset(_:completion:notWritten:)``, ``Store/reset(_:)``) does with the state.
///
/// Both modes cancel every effect (no action or event they produced is handled afterwards, even one already queued),
/// close every throttle window and start ``Reducer/bind()`` again if the store was started.
public enum ResetMode: Sendable {
    /// Also restores the initial state (``Store/initialState``): the version grows by `1` and observers are notified
    /// if that changed the state.
    case restoringInitialState
    /// Leaves the state and version as they are, which is what OneWay's `reset()` does: only the effects start over.
    case keepingState
}
