import Locking
import StatehouseCore
import Testing

@Suite struct ThrottleTests {
    /// Whether an effect leads depends on the store's clock, not on when the window's timer task gets to run: here the
    /// timers never wake (their sleeps hang until cancelled), yet an effect after the window's deadline leads, and a
    /// kept trailing effect runs before it.
    @Test func aWindowPastItsDeadlineEndsWhenTheNextEffectArrivesEvenIfItsTimerHasNotRun() async {
        let clock = StalledTimerClock()
        let store = Store(
            reducer: Script(script: { action in
                guard case .trigger(let name) = action else { return .none }
                let latest = name.hasPrefix("latest")
                return Effect.just(.event(name)).throttle(latest ? "l" : "t", for: .seconds(1), latest: latest)
            }),
            state: .init(), clock: clock)
        _ = await store.send(.trigger("t1"))
        _ = await store.send(.trigger("t2"))
        clock.now = .init(offset: .seconds(1))
        _ = await store.send(.trigger("t3"))
        #expect(await store.state.events == ["t1", "t3"])

        _ = await store.send(.trigger("latest1"))
        _ = await store.send(.trigger("latest2"))  // kept for the end of the window [1 s, 2 s)
        clock.now = .init(offset: .seconds(2))
        // The window ends here: its trailing latest2 runs and opens [2 s, 3 s), in which latest3 is kept.
        _ = await store.send(.trigger("latest3"))
        #expect(await store.state.events == ["t1", "t3", "latest1", "latest2"])
        clock.now = .init(offset: .seconds(3))
        _ = await store.send(.trigger("latest4"))
        #expect(await store.state.events == ["t1", "t3", "latest1", "latest2", "latest3"])
    }

    @Test func leadingRunsAtOnceAndIgnoresTheRestOfTheWindow() async {
        let clock = ManualClock()
        let store = timedStore(clock) { .just(.event($0)).throttle("t", for: .seconds(1)) }
        _ = await store.send(.trigger("t1"))
        _ = await store.send(.trigger("t2"))
        _ = await store.send(.trigger("t3"))
        #expect(await store.send(.event("probe")).state.events == ["t1", "probe"])
        clock.advance(by: .seconds(1))
        await store.untilIdle()
        #expect(await store.state.events == ["t1", "probe"])
        // The window ended with nothing kept: the id is forgotten and the next one leads again.
        #expect(await eventually { await store.throttleWindowCount == 0 })
        _ = await store.send(.trigger("t4"))
        #expect(await store.send(.event("probe")).state.events == ["t1", "probe", "t4", "probe"])
    }

    @Test func latestRunsTheLastIgnoredOneWhenTheWindowEnds() async {
        let clock = ManualClock()
        let store = timedStore(clock) { .just(.event($0)).throttle("t", for: .seconds(1), latest: true) }
        _ = await store.send(.trigger("t1"))
        _ = await store.send(.trigger("t2"))
        _ = await store.send(.trigger("t3"))
        #expect(await store.state.events == ["t1"])
        #expect(await store.isIdle == false)
        clock.advance(by: .seconds(1))
        await store.untilIdle()
        #expect(await store.state.events == ["t1", "t3"])

        // The trailing run opened a new window: t4 is kept, not run.
        _ = await store.send(.trigger("t4"))
        #expect(await store.state.events == ["t1", "t3"])
        clock.advance(by: .seconds(1))
        await store.untilIdle()
        #expect(await store.state.events == ["t1", "t3", "t4"])

        // A window with nothing kept ends and forgets the id.
        clock.advance(by: .seconds(1))
        #expect(await eventually { await store.throttleWindowCount == 0 })
        #expect(await settle(store))
    }

    @Test func cancelDiscardsTheKeptTrailingEffect() async {
        let clock = ManualClock()
        let store = timedStore(clock) { name in
            name == "stop" ? .cancel("t") : .just(.event(name)).throttle("t", for: .seconds(1), latest: true)
        }
        _ = await store.send(.trigger("t1"))
        _ = await store.send(.trigger("t2"))
        _ = await store.send(.trigger("stop"))
        #expect(await store.isIdle)
        clock.advance(by: .seconds(1))
        #expect(await eventually { await store.throttleWindowCount == 0 })
        #expect(await store.state.events == ["t1"])
    }

    /// OneWay's `throttle_latest` scenario, pinned to Statehouse's rule: a trailing run opens a new window, so at most
    /// one effect starts per window (as RxSwift's and Combine's `throttle(latest: true)` do). OneWay keeps the window
    /// of the leading run only, so there the send at 100 s runs at once as a new leading run right after the trailing
    /// one (its count is 3 at that step); here it is kept for the end of the window the trailing run opened.
    @Test func aTrailingRunOpensTheNextWindowUnlikeOneWay() async {
        let clock = ManualClock()
        let store = timedStore(clock) { _ in .just(.tick).throttle("t", for: .seconds(100), latest: true) }
        // The ticks once everything sent so far is reduced (a top-level `.just` is queued during its reduce).
        func ticks() async -> Int { await store.send(.event("probe")).state.ticks }
        _ = await store.send(.trigger("a"))  // t = 0: leads, opens [0, 100)
        #expect(await ticks() == 1)
        _ = await store.send(.trigger("b"))  // inside the window: kept
        #expect(await ticks() == 1)
        clock.advance(by: .seconds(100))  // t = 100: the window ends; "b" runs and opens [100, 200)
        await store.untilIdle()
        #expect(await ticks() == 2)
        _ = await store.send(.trigger("c"))  // t = 100, inside the new window: kept (OneWay runs it at once: 3)
        clock.advance(by: .seconds(10))
        _ = await store.send(.trigger("d"))  // t = 110: replaces "c"
        #expect(await ticks() == 2)
        clock.advance(by: .seconds(100))  // t = 210: the window ended at 200; "d" ran and opened [200, 300)
        await store.untilIdle()
        #expect(await ticks() == 3)
        clock.advance(by: .seconds(100))  // t = 310: that window ends with nothing kept
        #expect(await eventually { await store.throttleWindowCount == 0 })
        #expect(await ticks() == 3)
    }
}

/// A clock whose time the test sets and whose sleeps never return until their task is cancelled: a throttle window's
/// timer that never gets to run.
final class StalledTimerClock: Clock, Sendable {
    typealias Instant = ManualClock.Instant
    private let current = Locked(Instant(offset: .zero))

    var now: Instant {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let (stream, continuation) = AsyncStream<Never>.makeStream()
        await withTaskCancellationHandler {
            for await _ in stream {}
        } onCancel: {
            continuation.finish()
        }
        throw CancellationError()
    }
}
