/// OneWay's spellings, kept so that code ported from OneWay 3.0 stops at a compile error that says what to write
/// instead (docs/migrating.md), rather than at "cannot find in scope" or a misleading overload. Each is unavailable:
/// none can be called.

/// OneWay's effect type.
@available(*, unavailable, renamed: "Effect", message: "Statehouse's effect type is Effect<Action>")
public typealias AnyEffect<Action: Sendable> = Effect<Action>

/// OneWay's logging options.
@available(*, unavailable, renamed: "StoreLogging", message: "use StoreLogging: .actions, .state, .all, or [] for none")
public typealias LoggingOptions = StoreLogging

extension Store {
    /// OneWay's initializer with `loggingOptions:`.
    @available(
        *, unavailable,
        message: "use Store(reducer:state:clock:logger:logging:) with StoreLogging (.actions, .state, .all, [])"
    )
    public init(reducer: R, state: R.State, loggingOptions: StoreLogging, clock: any Clock<Duration> = ContinuousClock()) {
        self.init(reducer: reducer, state: state, clock: clock, logging: loggingOptions)
    }
}

extension Effect {
    /// OneWay's debounce, labelled and with its own clock.
    @available(
        *, unavailable,
        message: "use debounce(id, for: duration): the id is unlabelled and the time is the store's clock (Store(clock:))"
    )
    public func debounce<C: Clock>(
        id: some Hashable & Sendable, for dueTime: C.Instant.Duration, clock: C = ContinuousClock()
    ) -> Effect {
        fatalError("unavailable")
    }

    /// OneWay's throttle, labelled.
    @available(*, unavailable, message: "use throttle(id, for: duration, latest:): the id is unlabelled")
    public func throttle(id: some Hashable & Sendable, for interval: Duration, latest: Bool = false) -> Effect {
        fatalError("unavailable")
    }

    /// OneWay's single with a task priority.
    @available(
        *, unavailable,
        message: "effects have no priority: use .single { … } (a store's effects run on tasks it owns; docs/migrating.md)"
    )
    public static func single(priority: TaskPriority?, operation: @escaping @Sendable () async -> Action) -> Effect {
        fatalError("unavailable")
    }

    /// OneWay's sequence with a task priority and a synchronous send.
    @available(
        *, unavailable,
        message: "effects have no priority: use .sequence { send in await send(action) } (docs/migrating.md)"
    )
    public static func sequence(
        priority: TaskPriority?, operation: @escaping @Sendable (@escaping (Action) -> Void) async -> Void
    ) -> Effect {
        fatalError("unavailable")
    }
}
