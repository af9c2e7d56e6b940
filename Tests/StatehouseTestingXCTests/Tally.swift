import StatehouseCore

/// A counter with one effect, for the XCTest test cases.
struct Tally: Reducer {
    struct State: Equatable, Sendable {
        var count = 0
        var loaded = 0
    }

    enum Action: Sendable, Equatable {
        case increment
        /// Replies `.loaded(n)` through an effect task.
        case load(Int)
        case loaded(Int)
    }

    func reduce(state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment:
            state.count += 1
            return .none
        case .load(let value):
            return .single { .loaded(value) }
        case .loaded(let value):
            state.loaded = value
            return .none
        }
    }
}

extension Tally.Action {
    var loaded: Int? { if case .loaded(let value) = self { value } else { nil } }
}
