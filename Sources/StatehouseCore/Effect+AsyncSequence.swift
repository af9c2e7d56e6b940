extension Effect {
    /// Reduces every element of `values` as an action, in order; the effect ends when the sequence
    /// ends.
    ///
    /// Any `AsyncSequence` of actions becomes an effect: an `AsyncStream`, an
    /// `AsyncThrowingStream`, a `map` over a feed, or the `values` of a OneWay custom effect type.
    /// Each element is sent as `await send(action)` is in the closure form of `sequence(_:catch:)`:
    /// the next element is requested once this one was reduced, so the sequence is consumed at the
    /// store's pace.
    ///
    /// ```swift
    /// case .watch:
    ///     return .sequence(sensor.readings.map(Action.reading))
    ///         .cancellable(WatchID())
    /// ```
    ///
    /// Cancelling the effect's run ends the iteration: a cancellation-aware sequence (`AsyncStream`)
    /// ends at once; any other one is left after the element it is producing, which is not sent.
    ///
    /// - Parameters:
    ///   - values: The actions; iterated once, when the store starts the effect.
    ///   - catch: Maps an error the sequence throws (other than `CancellationError`) to an action,
    ///     or to `nil` for none. Without it, the error is logged as one line naming the store.
    /// - Returns: The effect.
    public static func sequence<Values: AsyncSequence & Sendable>(
        _ values: Values,
        catch: (@Sendable (any Error) -> Action?)? = nil
    ) -> Effect where Values.Element == Action {
        .sequence(
            { send in
                for try await action in values {
                    if Task.isCancelled { return }
                    await send(action)
                }
            },
            catch: `catch`
        )
    }

    /// An effect fed through an `AsyncStream` continuation: `build` receives the continuation and
    /// yields actions into it; each is reduced in order, and the effect ends when the continuation
    /// is finished.
    ///
    /// ```swift
    /// case .connect:
    ///     return .create { continuation in
    ///         let socket = Socket(onMessage: { continuation.yield(.received($0)) },
    ///                             onClose: { continuation.finish() })
    ///         continuation.onTermination = { _ in socket.close() }
    ///     }
    ///     .cancellable(SocketID())
    /// ```
    ///
    /// Lifecycle:
    /// - `build` runs once, in the effect's task, when the store starts the effect: never during the
    ///   reduce that returned it (OneWay's `create` ran it while the reducer built the effect), never
    ///   for an effect a throttle ignored, never for a run cancelled before it started (a
    ///   `delayed(by:)` cancelled while it waits).
    /// - The effect ends when the continuation is finished (`finish()`) and the actions yielded
    ///   before were reduced. Dropping the continuation does not finish it: an unfinished one keeps
    ///   the effect running (and the store not idle) until the run is cancelled.
    /// - Cancelling the effect's run finishes the stream: `onTermination` runs with `.cancelled`,
    ///   and later `yield`s return `.terminated`.
    ///
    /// Each action is reduced before the next is taken from the buffer; `bufferingPolicy` bounds
    /// what waits meanwhile (a dropped action is never reduced).
    ///
    /// Not to be confused with ``create(_:)``, which builds an effect lazily; the closure's shape
    /// picks the overload: `{ continuation in … }` is this one, `{ … }` without a parameter that one.
    ///
    /// - Parameters:
    ///   - bufferingPolicy: How many yielded actions wait unreduced; default `.unbounded`.
    ///   - build: Receives the continuation; called at most once, in the effect's task.
    /// - Returns: The effect.
    public static func create(
        bufferingPolicy: AsyncStream<Action>.Continuation.BufferingPolicy = .unbounded,
        _ build: @escaping @Sendable (AsyncStream<Action>.Continuation) -> Void
    ) -> Effect {
        .sequence { send in
            if Task.isCancelled { return }
            let (actions, continuation) = AsyncStream.makeStream(of: Action.self, bufferingPolicy: bufferingPolicy)
            build(continuation)
            for await action in actions {
                await send(action)
            }
        }
    }
}
