extension Effect {
    /// Waits `duration` on the store's clock, then runs this effect.
    ///
    /// Returned from a reduce, the deadline is fixed during that reduce (reduce time + `duration`);
    /// nested in a running effect, when that point is reached. Cancelling the enclosing run while
    /// it waits ends it without running this effect.
    ///
    /// - Parameter duration: The wait; zero or negative runs at once (still in a task).
    /// - Returns: The delayed effect.
    public func delayed(by duration: Duration) -> Effect {
        Effect(.delay(self, by: duration))
    }

    /// Debounce: waits `duration` on the store's clock, then runs this effect; a newer debounce with
    /// the same id cancels this one while it waits (or runs), so only the last of a burst runs.
    ///
    /// Equivalent to `delayed(by: duration).cancellable(id, cancelInFlight: true)`: the id is a
    /// cancellation id, so ``cancel(_:)`` with it cancels the waiting effect too.
    ///
    /// ```swift
    /// case .queryChanged(let text):
    ///     state.query = text
    ///     return .single { .results(try await search(text)) }
    ///         .debounce(SearchID(), for: .milliseconds(300))
    /// ```
    ///
    /// - Parameters:
    ///   - id: The debounce (and cancellation) id.
    ///   - duration: The quiet time that must pass before the effect runs.
    /// - Returns: The debounced effect.
    public func debounce(_ id: some Hashable & Sendable, for duration: Duration) -> Effect {
        delayed(by: duration).cancellable(id, cancelInFlight: true)
    }

    /// Throttle: runs the first effect with this id at once (leading) and ignores the next ones with
    /// the same id until `duration` has passed on the store's clock.
    ///
    /// With `latest: true` the last effect ignored during a window is kept and runs when the window
    /// ends (trailing); that trailing run opens a new window, so at most one effect starts per
    /// window. A window that ends with nothing kept forgets the id. The effects run registered under
    /// `id` as a cancellation id: ``cancel(_:)`` cancels the running one and discards a kept one
    /// (the window itself stays). A store reset forgets every window.
    ///
    /// The rule is RxSwift's and Combine's (`throttle(latest: true)`), not OneWay's: OneWay times its
    /// window from the leading run only, so an effect arriving right after a trailing run starts at
    /// once as a new leading run. Here it is kept, and runs when the window the trailing run opened
    /// ends. With a 100 s window: sent at 0 s and 50 s → runs at 0 s and 100 s; sent again at 100 s
    /// and 110 s → the 110 s one runs at 200 s (OneWay: the 100 s one at 100 s).
    ///
    /// - Parameters:
    ///   - id: The throttle (and cancellation) id.
    ///   - duration: The window length.
    ///   - latest: Whether to run the last ignored effect when the window ends.
    /// - Returns: The throttled effect.
    public func throttle(
        _ id: some Hashable & Sendable,
        for duration: Duration,
        latest: Bool = false
    ) -> Effect {
        Effect(.throttle(self, id: EffectID(id), window: duration, latest: latest))
    }
}
