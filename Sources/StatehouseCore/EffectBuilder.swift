/// Builds an array of effects from statements, for `Effect.merge(_:)` and `Effect.concat(_:)`
/// written with a trailing closure.
///
/// Supports plain effect expressions, optional effects (`nil` contributes nothing), `if` with or
/// without `else`, `switch`, `for … in` loops and `if #available`.
///
/// ```swift
/// .concat {
///     Effect.just(.started)
///     if state.verbose { Effect.emit(Log.started) }
///     for id in state.ids { Effect.single { .loaded(try await api.load(id)) } }
/// }
/// ```
@resultBuilder
public enum EffectBuilder<Action: Sendable> {
    /// One effect.
    public static func buildExpression(_ effect: Effect<Action>) -> [Effect<Action>] {
        [effect]
    }

    /// An optional effect; `nil` contributes nothing.
    public static func buildExpression(_ effect: Effect<Action>?) -> [Effect<Action>] {
        effect.map { [$0] } ?? []
    }

    /// Statements in order.
    public static func buildBlock(_ parts: [Effect<Action>]...) -> [Effect<Action>] {
        parts.flatMap { $0 }
    }

    /// `if` without `else`.
    public static func buildOptional(_ part: [Effect<Action>]?) -> [Effect<Action>] {
        part ?? []
    }

    /// The `if` branch of `if`/`else` (or a `switch` case).
    public static func buildEither(first part: [Effect<Action>]) -> [Effect<Action>] {
        part
    }

    /// The `else` branch of `if`/`else` (or a `switch` case).
    public static func buildEither(second part: [Effect<Action>]) -> [Effect<Action>] {
        part
    }

    /// `for … in` loops.
    public static func buildArray(_ parts: [[Effect<Action>]]) -> [Effect<Action>] {
        parts.flatMap { $0 }
    }

    /// `if #available`.
    public static func buildLimitedAvailability(_ part: [Effect<Action>]) -> [Effect<Action>] {
        part
    }
}

extension Effect {
    /// Runs the built effects concurrently; see `merge(_:)`.
    ///
    /// - Parameter build: Statements producing effects (see ``EffectBuilder``).
    public static func merge(@EffectBuilder<Action> _ build: () -> [Effect]) -> Effect {
        merge(build())
    }

    /// Runs the built effects strictly one after another; see `concat(_:)`.
    ///
    /// - Parameter build: Statements producing effects (see ``EffectBuilder``).
    public static func concat(@EffectBuilder<Action> _ build: () -> [Effect]) -> Effect {
        concat(build())
    }
}
