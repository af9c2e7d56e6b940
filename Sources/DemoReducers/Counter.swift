public import Statehouse

/// A demo counter: `{"count":Int}`.
///
/// Arithmetic saturates at `Int.min`/`Int.max` instead of trapping. Delays are clamped to 1…3,600,000 ms.
public struct Counter: ServableReducer {
    public struct State: Codable, Equatable, Sendable {
        public var count: Int
        public init(count: Int = 0) { self.count = count }
    }

    public enum Action: Codable, Sendable, Equatable {
        case increment
        case decrement
        case add(amount: Int)
        case reset
        /// Increments after `ms` milliseconds on the store's clock (`delayed`, cancellable with `cancelLater`).
        case incrementLater(ms: Int)
        case cancelLater
        /// Increments every `ms` milliseconds until `stopTicking` (a cancellable `sequence`).
        case startTicking(ms: Int)
        case stopTicking
    }

    private enum EffectID: Hashable, Sendable { case later, ticking }

    public static let initialState = State()
    public static let actionTypes = [
        "increment", "decrement", "add", "reset", "incrementLater", "cancelLater", "startTicking", "stopTicking",
    ]

    public init() {}

    public func reduce(state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment:
            state.count = Self.saturatingAdd(state.count, 1)
        case .decrement:
            state.count = Self.saturatingAdd(state.count, -1)
        case .add(let amount):
            state.count = Self.saturatingAdd(state.count, amount)
        case .reset:
            state.count = 0
        case .incrementLater(let ms):
            return Effect.just(.increment).delayed(by: Self.clampedDelay(ms)).cancellable(EffectID.later)
        case .cancelLater:
            return .cancel(EffectID.later)
        case .startTicking(let ms):
            let period = Self.clampedDelay(ms)
            return .sequence { send in
                while true {
                    try await Task.sleep(for: period)
                    await send(.increment)
                }
            }
            .cancellable(EffectID.ticking, cancelInFlight: true)
        case .stopTicking:
            return .cancel(EffectID.ticking)
        }
        return .none
    }

    static func saturatingAdd(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    static func clampedDelay(_ ms: Int) -> Duration { .milliseconds(min(max(ms, 1), 3_600_000)) }
}
