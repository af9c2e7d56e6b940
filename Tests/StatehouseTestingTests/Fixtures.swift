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

/// A loader whose actions are not `Equatable` (`failed` carries an error), to exercise `receive` by case.
struct Loader: Reducer {
    struct State: Equatable, Sendable {
        var value = 0
        var problem = ""
        var isStarted = false
    }

    struct LoadError: Error {
        let reason: String
    }

    enum Action: Sendable {
        /// Replies `.started` through an effect task.
        case start
        /// Replies `.loaded(n)` through an effect task.
        case load(Int)
        /// Replies `.loaded(n)` for each value, in order.
        case loadAll([Int])
        /// Replies `.failed(LoadError(reason:))`.
        case fail(String)
        case started
        case loaded(Int)
        case failed(any Error)
    }

    func reduce(state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start:
            return .single { .started }
        case .load(let value):
            return .single { .loaded(value) }
        case .loadAll(let values):
            return .sequence { send in
                for value in values { await send(.loaded(value)) }
            }
        case .fail(let reason):
            return .single { .failed(LoadError(reason: reason)) }
        case .started:
            state.isStarted = true
            return .none
        case .loaded(let value):
            state.value = value
            return .none
        case .failed(let error):
            state.problem = (error as? LoadError)?.reason ?? "\(error)"
            return .none
        }
    }
}

/// The case key paths a test writes by hand (TCA's `@CasePathable` without the macro).
extension Loader.Action {
    var loaded: Int? { if case .loaded(let value) = self { value } else { nil } }
    var failed: (any Error)? { if case .failed(let error) = self { error } else { nil } }
    var wasStarted: Void? { if case .started = self { () } else { nil } }
}
