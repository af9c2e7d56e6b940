extension Effect {
    /// Makes this effect cancellable under `id`.
    ///
    /// When the store interprets the result it starts a new *run* registered under `id`; every
    /// action the wrapped effect produces is tagged with that run. ``cancel(_:)`` with an equal id
    /// cancels the run's tasks, and from the reduce that interpreted the cancel onwards no action
    /// produced by the run (or by any run nested inside it) is reduced, even one already waiting in
    /// the mailbox. Several runs may share an id; a cancel stops all of them.
    ///
    /// - Parameters:
    ///   - id: Any `Hashable & Sendable` value; compared after type erasure, so `1` (`Int`) and
    ///     `"1"` (`String`) are different ids.
    ///   - cancelInFlight: When `true`, runs already registered under `id` are cancelled before
    ///     this one starts (latest wins).
    /// - Returns: The wrapped effect.
    public func cancellable(_ id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Effect {
        Effect(.cancellable(self, id: EffectID(id), cancelInFlight: cancelInFlight))
    }

    /// Cancels every live run registered under `id` (see ``cancellable(_:cancelInFlight:)``).
    ///
    /// Returned directly from a reduce (or inside a top-level `merge(_:)`), it takes
    /// effect synchronously during that reduce. Inside a running effect (for example as a step of
    /// `concat(_:)`) it takes effect when it reaches the store's actor. Cancelling an id
    /// with no live run does nothing.
    ///
    /// - Parameter id: The id given to ``cancellable(_:cancelInFlight:)``.
    public static func cancel(_ id: some Hashable & Sendable) -> Effect {
        Effect(.cancel(EffectID(id)))
    }
}

/// A type-erased cancellation id.
///
/// `@unchecked Sendable` is sound: the only initializer takes a `Sendable` value, and `AnyHashable`
/// only stores it.
struct EffectID: Hashable, CustomStringConvertible, @unchecked Sendable {
    private let base: AnyHashable

    init(_ value: some Hashable & Sendable) {
        base = AnyHashable(value)
    }

    /// The wrapped value as text (used in log lines).
    var description: String {
        String(describing: base.base)
    }
}
