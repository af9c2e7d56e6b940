import Foundation
import StatehouseCore
import Synchronization
import Locking

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

/// A store in which `.trigger("go")` starts an effect that sends `.tick` until it is cancelled (by a reset or a stop).
func tickingStore() -> Store<Script> {
    Store(
        reducer: Script(script: { action in
            guard action == .trigger("go") else { return .none }
            return .sequence { send in
                while !Task.isCancelled { await send(.tick) }
            }
        }),
        state: .init()
    )
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


/// A ``StoreExecutor`` on a serial dispatch queue, standing in for the server's event loop: a store bound to it runs
/// its drains and isolated code as the queue's work items.
///
/// ## Thread safety
/// Every method may be called from any thread (the queue serializes the jobs).
final class QueueExecutor: StoreExecutor, @unchecked Sendable {
    // `@unchecked` only for `DispatchSpecificKey`, an immutable key object.
    private let queue = DispatchQueue(label: "statehouse-test-executor")
    private let key = DispatchSpecificKey<Bool>()

    init() {
        queue.setSpecific(key: key, value: true)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func execute(_ job: @escaping @Sendable () -> Void) {
        queue.async(execute: job)
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func checkIsolated() {
        precondition(isIsolatingCurrentContext() == true, "not on the test executor's queue")
    }

    func isIsolatingCurrentContext() -> Bool? {
        DispatchQueue.getSpecific(key: key) == true
    }
}
