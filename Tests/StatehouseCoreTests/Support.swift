import Foundation
import StatehouseCore
import Synchronization
import Locking

/// A one-shot gate: `wait()` suspends until `open()` has been called (before or after).
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Locked(State())

    func open() {
        let pending = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in pending { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }
}

/// A thread-safe append-only list.
final class Recorder<Element: Sendable>: Sendable {
    private let elements = Locked<[Element]>([])

    func append(_ element: Element) {
        elements.withLock { $0.append(element) }
    }

    var values: [Element] { elements.withLock { $0 } }
}

/// Polls `condition` until it holds or `timeout` passes; returns whether it held.
func eventually(
    timeout: Duration = .seconds(30),
    _ condition: () async -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !(await condition()) {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

/// Waits until the store has no running effect task and no live run.
func settle<R: Reducer>(_ store: Store<R>) async -> Bool {
    await eventually {
        let counts = await store.runBookkeepingCounts
        let running = await store.runningEffectCount
        return running == 0 && counts.runs == 0 && counts.effectIDs == 0
    }
}

/// A reducer whose effects come from a closure, so each test writes its own script.
///
/// `.event` appends to `events`, `.tick` increments `ticks`, `.trigger`/`.spawn` change nothing;
/// every action then gets the effect `script(action)`.
struct Script: Reducer {
    struct State: Equatable, Sendable {
        var events: [String] = []
        var ticks = 0
    }

    enum Action: Sendable, Equatable {
        case trigger(String)
        case spawn(Int)
        case event(String)
        case tick
    }

    var script: @Sendable (Action) -> Effect<Action> = { _ in .none }
    var onBind: @Sendable () -> Effect<Action> = { .none }

    func reduce(state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .event(let name): state.events.append(name)
        case .tick: state.ticks += 1
        case .trigger, .spawn: break
        }
        return script(action)
    }

    func bind() -> Effect<Action> { onBind() }
}

/// A reducer without effects for ordering, versioning and observer tests.
struct Tally: Reducer {
    struct State: Equatable, Sendable {
        var count = 0
        var last = 0
        var outOfOrder = 0
        var value = 0
    }

    enum Action: Sendable {
        case increment
        /// Records a sequence number; counts any number not greater than the previous one.
        case record(Int)
        /// Sets `value` (an equal value leaves the state unchanged).
        case set(Int)
    }

    func reduce(state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment:
            state.count += 1
        case .record(let number):
            if number <= state.last { state.outOfOrder += 1 }
            state.last = number
            state.count += 1
        case .set(let value):
            state.value = value
        }
        return .none
    }
}

struct TestError: Error, CustomStringConvertible {
    let description: String
}

