/// The pure logic of one store: how an action changes the state, and which work follows.
///
/// A reducer is a value. ``Store`` calls ``reduce(state:action:)`` on its actor, one action at a
/// time, in mailbox order. The reducer mutates `state` in place and returns an ``Effect`` that
/// describes asynchronous work; the store runs that work and feeds the actions it produces back
/// through the same mailbox. Reducers never throw and must not block: failures belong in effects,
/// which turn them into actions (see ``Effect/single(_:catch:)``).
///
/// ```swift
/// struct Counter: Reducer {
///     enum Action: Sendable { case increment, reset }
///     func reduce(state: inout Int, action: Action) -> Effect<Action> {
///         switch action {
///         case .increment: state += 1
///         case .reset: state = 0
///         }
///         return .none
///     }
/// }
/// ```
///
/// ## Thread safety
/// A reducer is `Sendable` and is called only on its store's actor, never concurrently for one store.
public protocol Reducer<State, Action>: Sendable {
    /// The state a store holds. `Equatable` so the store can skip versions and notifications when a
    /// reduce leaves the state unchanged.
    associatedtype State: Sendable & Equatable
    /// The inputs: sent by clients (``Store/enqueue(_:completion:)``) or produced by effects.
    associatedtype Action: Sendable
    /// Out-of-band events emitted by effects (``Effect/emit(_:)``) and delivered to
    /// ``Store/observeEvents(_:)``; they change neither state nor version. Defaults to `Never` (no events).
    associatedtype Event: Sendable = Never

    /// Applies `action` to `state` and returns the work that follows (``Effect/none`` for none).
    ///
    /// - Parameters:
    ///   - state: The current state, mutated in place.
    ///   - action: The action to apply.
    /// - Returns: The effect to run; the store interprets it right after this call returns.
    func reduce(state: inout State, action: Action) -> Effect<Action>

    /// Long-lived work started once when the store starts (``Store/start()``).
    ///
    /// Typical uses: subscribe to an outside feed, start a timer. The default is ``Effect/none``.
    /// - Returns: The effect to run for the lifetime of the store.
    func bind() -> Effect<Action>
}

extension Reducer {
    /// The default: no work at start.
    public func bind() -> Effect<Action> { .none }
}
