import DemoReducers
import Foundation
import StatehouseCore
import StatehouseTesting
import Testing
import Synchronization
import Locking

/// The demo reducers, driven by a TestStore on a TestClock: no wall time passes.
struct DemoReducerTests {
    /// The README's example, verbatim.
    @Test func incrementLater() async {
        let clock = TestClock()
        let store = TestStore(reducer: Counter(), state: .init(), clock: clock)
        await store.send(.incrementLater(ms: 500))
        await clock.advance(by: .milliseconds(500))
        await store.receive(.increment) { $0.count = 1 }
        await store.finish()
    }

    @Test func cancelLaterDropsThePendingIncrement() async {
        let clock = TestClock()
        let store = TestStore(reducer: Counter(), state: .init(), clock: clock)
        await store.send(.incrementLater(ms: 500))
        await store.send(.cancelLater)
        await clock.advance(by: .seconds(1))
        await store.finish()
    }

    @Test func searchIsDebouncedAndOnlyTheLastQueryRuns() async {
        let clock = TestClock()
        let store = TestStore(reducer: Search(), state: .init(), clock: clock)
        await store.send(.query("a")) { $0.query = "a" }
        await store.send(.query("ap")) { $0.query = "ap" }
        await clock.advance(by: Search.debounceDelay)
        await store.receive(.results(query: "ap", items: ["apple", "apricot"])) {
            $0.results = ["apple", "apricot"]
            $0.searches = 1
        }
        await store.finish()
    }

    @Test func searchWithNoResultEmitsAnEvent() async {
        let clock = TestClock()
        let store = Store(reducer: Search(), state: .init(), clock: clock)
        let events = EventLog()
        _ = await store.observeEvents { events.append($0) }
        _ = await store.send(.query("zz"))
        await clock.advance(by: Search.debounceDelay)
        await store.untilIdle()
        #expect(events.all == [.noResults(query: "zz")])
        #expect(await store.state.searches == 1)
    }

    @Test func counterSaturates() async {
        let store = TestStore(reducer: Counter(), state: .init(count: .max - 1))
        await store.send(.add(amount: 5)) { $0.count = .max }
        await store.send(.increment)
        await store.send(.add(amount: .min)) { $0.count = -1 }
    }

    @Test func tickerCopiesSequenceAndTimestamp() async {
        let store = TestStore(reducer: Ticker(), state: .init())
        await store.send(.publish(seq: 1, t: 42)) {
            $0.seq = 1
            $0.t = 42
        }
        await store.send(.publish(seq: 1, t: 42))
    }

    @Test func todoListAddsTogglesAndClears() async {
        let store = TestStore(reducer: TodoList(), state: .init())
        await store.send(.add(text: "milk")) {
            $0.items = [.init(id: 1, text: "milk", done: false)]
            $0.nextID = 2
        }
        await store.send(.toggle(id: 1)) { $0.items[0].done = true }
        await store.send(.toggle(id: 99))
        await store.send(.clearCompleted) { $0.items = [] }
    }
}

/// Events seen by an observer (tests only).
final class EventLog: @unchecked Sendable {
    private let lock = Locked(())  // guards the vars below
    private var events: [Search.Event] = []
    func append(_ event: Search.Event) { lock.withLock { events.append(event) } }
    var all: [Search.Event] { lock.withLock { events } }
}
