/// A description of work that follows a reduce; the store runs it and reduces the actions it produces.
///
/// An effect is an inert value: building one starts nothing. A ``Store`` interprets the effect a
/// reducer returns right after the reduce:
///
/// | Effect | What the store does |
/// |---|---|
/// | ``none`` | nothing |
/// | ``just(_:)`` | enqueues the action directly (no task) |
/// | ``single(_:catch:)`` / ``sequence(_:catch:)`` | runs the operation in a task the store owns |
/// | `sequence(_:catch:)` with an `AsyncSequence` | reduces each element as an action, in a task the store owns |
/// | `merge(_:)` | starts every child at once |
/// | `concat(_:)` | runs children one after another, each to completion |
/// | ``cancellable(_:cancelInFlight:)`` | runs the effect as a run that ``cancel(_:)`` can stop |
/// | ``cancel(_:)`` | cancels every live run registered under the id |
/// | ``create(_:)`` | builds the effect when the store reaches it, then runs it |
/// | ``create(bufferingPolicy:_:)`` | calls `build` with a stream continuation when the store starts it; reduces what it yields |
/// | ``fetch(_:then:_:)`` | sets a ``DataFetchingState`` field to `.loading`, then delivers the outcome as an action |
/// | ``emit(_:)`` | delivers an out-of-band event to ``Store/observeEvents(_:)`` |
/// | ``delayed(by:)`` | waits on the store's clock, then runs the effect |
/// | ``debounce(_:for:)`` | delayed, and a newer debounce with the same id replaces it |
/// | ``throttle(_:for:latest:)`` | at most one per window per id (leading, optionally trailing) |
///
/// Errors thrown by an operation never escape: `CancellationError` is ignored, any other error is
/// mapped by the `catch:` closure to an action (or to nothing), or, without `catch:`, written as one
/// line to the store's logger.
public struct Effect<Action: Sendable>: Sendable {
    /// The closure that maps an operation's error to an action; `nil` result = no action.
    typealias ErrorHandler = @Sendable (any Error) -> Action?

    /// What the effect does; interpreted by `Store` (see `Store+Effects.swift`, `Store+Interpreter.swift`).
    /// Internal so new kinds (timing, for example) can be added without changing the public API.
    enum Operation: Sendable {
        case none
        case just(Action)
        case single(@Sendable () async throws -> Action, ErrorHandler?)
        case sequence(@Sendable (Send<Action>) async throws -> Void, ErrorHandler?)
        case merge([Effect])
        case concat([Effect])
        indirect case cancellable(Effect, id: EffectID, cancelInFlight: Bool)
        case cancel(EffectID)
        case create(@Sendable () -> Effect)
        case emit(any Sendable)
        indirect case delay(Effect, by: Duration)
        indirect case throttle(Effect, id: EffectID, window: Duration, latest: Bool)
    }

    /// The work this effect describes.
    let operation: Operation

    init(_ operation: Operation) {
        self.operation = operation
    }

    /// No work.
    public static var none: Effect { Effect(.none) }

    /// Feeds `action` back to the store right away: it is enqueued during the reduce that returned
    /// this effect, so it is reduced before any action enqueued later.
    ///
    /// - Parameter action: The action to enqueue.
    public static func just(_ action: Action) -> Effect {
        Effect(.just(action))
    }

    /// Runs one asynchronous operation and reduces the action it returns.
    ///
    /// - Parameters:
    ///   - operation: Produces one action; may throw.
    ///   - catch: Maps a thrown error (other than `CancellationError`) to an action, or to `nil` for
    ///     none. Without it, the error is logged as one line naming the store.
    public static func single(
        _ operation: @escaping @Sendable () async throws -> Action,
        catch: (@Sendable (any Error) -> Action?)? = nil
    ) -> Effect {
        Effect(.single(operation, `catch`))
    }

    /// Runs an asynchronous operation that may send any number of actions through ``Send``.
    ///
    /// The effect ends when `operation` returns. Each `send` suspends until its action is reduced,
    /// so the operation naturally follows the store's pace.
    ///
    /// - Parameters:
    ///   - operation: The work; receives the ``Send`` handle; may throw.
    ///   - catch: Maps a thrown error (other than `CancellationError`) to an action, or to `nil` for
    ///     none. Without it, the error is logged as one line naming the store.
    public static func sequence(
        _ operation: @escaping @Sendable (Send<Action>) async throws -> Void,
        catch: (@Sendable (any Error) -> Action?)? = nil
    ) -> Effect {
        Effect(.sequence(operation, `catch`))
    }
}
