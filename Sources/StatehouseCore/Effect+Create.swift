extension Effect {
    /// An effect built lazily: `make` runs only when the store reaches this effect.
    ///
    /// Returned from a reduce (or inside a top-level `merge`), `make` runs during that reduce.
    /// As a step of `concat(_:)` it runs when the previous steps have finished, and not at all if
    /// the concat was cancelled (``cancel(_:)``) or the store reset before that step.
    ///
    /// ```swift
    /// .concat(
    ///     .single { .loaded(try await api.first()) },
    ///     .create { .just(.log("first done at \(Date())")) }
    /// )
    /// ```
    ///
    /// For an effect fed through an `AsyncStream` continuation (OneWay's `create`), see
    /// ``create(bufferingPolicy:_:)``: a closure with a parameter picks that overload.
    ///
    /// - Parameter make: Builds the effect to run; called at most once, on the store's actor or
    ///   in the effect's task.
    public static func create(_ make: @escaping @Sendable () -> Effect) -> Effect {
        Effect(.create(make))
    }

    /// Emits an out-of-band event: delivered to the store's ``Store/observeEvents(_:)`` observers if
    /// it is an `R.Event` of the store's reducer, otherwise the store logs one line and drops it.
    ///
    /// Events change neither state nor version. Returned directly from a reduce (or inside a
    /// top-level `merge`), the event is delivered synchronously during that reduce, after its
    /// state notification. Nested in a running effect (a step of `concat`, a child of a task-run
    /// `merge`), it is delivered when that point of the effect is reached, in mailbox order with
    /// actions; the effect continues once it was delivered. An event of a cancelled effect is
    /// dropped.
    ///
    /// - Parameter event: The event; type-erased so effects stay generic over `Action` only.
    public static func emit(_ event: some Sendable) -> Effect {
        Effect(.emit(event))
    }
}
