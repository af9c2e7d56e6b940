import StatehouseCore

/// A counter whose effects answer through a clock, to exercise ``TestStore``.
struct Counter: Reducer {
    struct State: Equatable, Sendable {
        var count = 0
        var value = 0
        var label = ""
    }

    enum Action: Sendable, Equatable {
        case increment
        case noop
        /// Replies `.response(n)` right away through an effect task.
        case fetch(Int)
        /// Replies `.response(n)` after `seconds` on the store's clock.
        case fetchLater(Int, seconds: Int)
        /// Replies `.response(1)`, `.response(2)` … `.response(n)`, in order.
        case fetchMany(Int)
        case response(Int)
        case cancelFetches
        case rename(String)
    }

    func reduce(state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment:
            state.count += 1
            return .none
        case .noop:
            return .none
        case .fetch(let value):
            return .single { .response(value) }
        case .fetchLater(let value, let seconds):
            return Effect.just(.response(value)).delayed(by: .seconds(seconds)).cancellable("fetch")
        case .fetchMany(let count):
            return .sequence { send in
                for value in 1...count { await send(.response(value)) }
            }
        case .response(let value):
            state.value = value
            return .none
        case .cancelFetches:
            return .cancel("fetch")
        case .rename(let label):
            state.label = label
            return .none
        }
    }
}
