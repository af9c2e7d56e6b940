import StatehouseCore
import StatehouseTestClients
import Testing

private typealias Continuation = AsyncStream<Script.Action>.Continuation

/// A OneWay-style custom effect type: it exposes its actions as `values`.
private struct Countdown {
    let from: Int

    var values: AsyncStream<Script.Action> {
        AsyncStream { continuation in
            for number in (1...from).reversed() {
                continuation.yield(.event("\(number)"))
            }
            continuation.finish()
        }
    }
}

/// A sequence that ignores cancellation: each `next()` waits for `release`, then returns `.tick`;
/// it ends after 100 ticks (so a consumer that does not stop on cancellation fails, not hangs).
private struct UncancellableTicks: AsyncSequence, Sendable {
    let release: Gate
    let asked: Gate
    let nextCalls: Recorder<Int>

    struct AsyncIterator: AsyncIteratorProtocol {
        let ticks: UncancellableTicks

        mutating func next() async -> Script.Action? {
            ticks.nextCalls.append(1)
            if ticks.nextCalls.values.count > 100 { return nil }
            ticks.asked.open()
            await ticks.release.wait()
            return .tick
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(ticks: self)
    }
}

@Suite struct CreateWithContinuationTests {
    @Test func buildDoesNotRunWhenTheEffectIsMade() async {
        let built = Recorder<Int>()
        let effect = Effect<Script.Action>.create { continuation in
            built.append(1)
            continuation.yield(.event("a"))
            continuation.yield(.event("b"))
            continuation.finish()
        }
        #expect(built.values.isEmpty)
        let store = Store(reducer: Script(script: { $0 == .trigger("go") ? effect : .none }), state: .init())
        _ = await store.send(.trigger("go"))
        await store.untilIdle()
        #expect(built.values == [1])
        #expect(await store.state.events == ["a", "b"])
        #expect(await store.runningEffectCount == 0)
    }

    @Test func theEffectEndsWhenTheContinuationFinishes() async {
        let continuations = Recorder<Continuation>()
        let started = Gate()
        let store = Store(
            reducer: Script(script: { action in
                guard action == .trigger("go") else { return .none }
                return .concat(
                    .create { continuation in
                        continuations.append(continuation)
                        started.open()
                    },
                    .just(.event("after"))
                )
            }),
            state: .init()
        )
        _ = await store.send(.trigger("go"))
        await started.wait()
        let continuation = continuations.values[0]
        continuation.yield(.event("a"))
        #expect(await eventually { await store.state.events == ["a"] })
        #expect(await store.isIdle == false)
        continuation.finish()
        await store.untilIdle()
        #expect(await store.state.events == ["a", "after"])
    }

    @Test func cancellingTheRunFinishesTheContinuation() async {
        let continuations = Recorder<Continuation>()
        let cancelled = Recorder<Bool>()
        let started = Gate()
        let terminated = Gate()
        let store = Store(
            reducer: Script(script: { action in
                switch action {
                case .trigger("go"):
                    .create { continuation in
                        continuation.onTermination = { termination in
                            if case .cancelled = termination { cancelled.append(true) } else { cancelled.append(false) }
                            terminated.open()
                        }
                        continuations.append(continuation)
                        started.open()
                    }
                    .cancellable("c")
                case .trigger("stop"): .cancel("c")
                default: .none
                }
            }),
            state: .init()
        )
        _ = await store.send(.trigger("go"))
        await started.wait()
        continuations.values[0].yield(.event("before"))
        #expect(await eventually { await store.state.events == ["before"] })
        _ = await store.send(.trigger("stop"))
        await terminated.wait()
        #expect(cancelled.values == [true])
        let late = continuations.values[0].yield(.event("late"))
        guard case .terminated = late else {
            Issue.record("a yield after the cancel returned \(late), not .terminated")
            return
        }
        await store.untilIdle()
        #expect(await store.runningEffectCount == 0)
        #expect(await store.send(.event("probe")).state.events == ["before", "probe"])
    }

    @Test func aThrottledAwayCreateIsNeverBuilt() async {
        let clock = ManualClock()
        let built = Recorder<String>()
        let store = timedStore(clock) { name in
            Effect.create { continuation in
                built.append(name)
                continuation.yield(.event(name))
                continuation.finish()
            }
            .throttle("t", for: .seconds(1), latest: true)
        }
        _ = await store.send(.trigger("t1"))
        _ = await store.send(.trigger("t2"))
        _ = await store.send(.trigger("t3"))
        #expect(await eventually { await store.state.events == ["t1"] })
        #expect(built.values == ["t1"])
        clock.advance(by: .seconds(1))
        #expect(await eventually { await store.state.events == ["t1", "t3"] })
        // t2 was replaced as the trailing effect before its window ended: never built.
        #expect(built.values == ["t1", "t3"])
        clock.advance(by: .seconds(1))
        #expect(await eventually { await store.throttleWindowCount == 0 })
        await store.untilIdle()
    }

    @Test func aDelayedCreateCancelledWhileItWaitsIsNeverBuilt() async {
        let clock = ManualClock()
        let built = Recorder<String>()
        let store = timedStore(clock) { name in
            name == "stop"
                ? .cancel("d")
                : Effect.create { continuation in
                    built.append(name)
                    continuation.finish()
                }
                .delayed(by: .seconds(1))
                .cancellable("d")
        }
        _ = await store.send(.trigger("go"))
        _ = await store.send(.trigger("stop"))
        clock.advance(by: .seconds(1))
        await store.untilIdle()
        #expect(built.values.isEmpty)
    }

    @Test func bufferingPolicyBoundsWhatWaits() async {
        let store = Store(
            reducer: Script(script: { action in
                guard action == .trigger("go") else { return .none }
                return .create(bufferingPolicy: .bufferingNewest(1)) {
                    // Yielded before the effect takes the first one: only the newest is kept.
                    $0.yield(.event("a"))
                    $0.yield(.event("b"))
                    $0.yield(.event("c"))
                    $0.finish()
                }
            }),
            state: .init()
        )
        _ = await store.send(.trigger("go"))
        await store.untilIdle()
        #expect(await store.state.events == ["c"])
    }

    /// Both `create` overloads, picked by the closure's shape alone (this compiles only if each
    /// call resolves to exactly one overload); the events show which one ran.
    @Test func theClosureShapePicksTheOverload() async {
        let store = Store(
            reducer: Script(script: { action in
                if action == .trigger("cancel") { return .cancel("never finishes") }
                guard action == .trigger("go") else { return .none }
                return .concat(
                    .create { .just(.event("lazy")) },
                    .create {
                        let text = "lazy, two statements"
                        return .just(.event(text))
                    },
                    .create { continuation in
                        continuation.yield(.event("named parameter"))
                        continuation.finish()
                    },
                    .create {
                        $0.yield(.event("anonymous parameter"))
                        $0.finish()
                    },
                    .create { _ in }.cancellable("never finishes"),
                    .create(bufferingPolicy: .unbounded) {
                        $0.yield(.event("after the cancel"))
                        $0.finish()
                    }
                )
            }),
            state: .init()
        )
        _ = await store.send(.trigger("go"))
        #expect(
            await eventually {
                await store.state.events == ["lazy", "lazy, two statements", "named parameter", "anonymous parameter"]
            }
        )
        // `{ _ in }` is a stream that is never finished: that step runs until cancelled.
        #expect(await store.isIdle == false)
        _ = await store.send(.trigger("cancel"))
        await store.untilIdle()
        #expect(await store.state.events.last == "after the cancel")
    }
}

@Suite struct SequenceOfActionsTests {
    @Test func everyElementOfAnAsyncStreamIsReducedInOrder() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Script.Action.self)
        for name in ["a", "b", "c"] { continuation.yield(.event(name)) }
        continuation.finish()
        let store = Store(
            reducer: Script(script: { $0 == .trigger("go") ? .concat(.sequence(stream), .just(.event("after"))) : .none }),
            state: .init()
        )
        _ = await store.send(.trigger("go"))
        await store.untilIdle()
        #expect(await store.state.events == ["a", "b", "c", "after"])
        #expect(await store.runningEffectCount == 0)
    }

    @Test func aCustomEffectTypesValuesBecomeAnEffect() async {
        let store = Store(
            reducer: Script(script: { action in
                guard case .spawn(let count) = action else { return .none }
                return .sequence(Countdown(from: count).values)
            }),
            state: .init()
        )
        _ = await store.send(.spawn(3))
        await store.untilIdle()
        #expect(await store.state.events == ["3", "2", "1"])
    }

    @Test func aMappedSequenceBecomesAnEffect() async {
        let (numbers, continuation) = AsyncStream.makeStream(of: Int.self)
        for number in 1...3 { continuation.yield(number) }
        continuation.finish()
        let store = Store(
            reducer: Script(script: { $0 == .trigger("go") ? .sequence(numbers.map { .event("n\($0)") }) : .none }),
            state: .init()
        )
        _ = await store.send(.trigger("go"))
        await store.untilIdle()
        #expect(await store.state.events == ["n1", "n2", "n3"])
    }

    @Test func aThrowingSequencesErrorGoesToCatch() async {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Script.Action.self)
        continuation.yield(.event("a"))
        continuation.finish(throwing: TestError(description: "boom"))
        let store = Store(
            reducer: Script(script: { action in
                guard action == .trigger("go") else { return .none }
                return .sequence(stream, catch: { .event("failed: \($0)") })
            }),
            state: .init()
        )
        _ = await store.send(.trigger("go"))
        await store.untilIdle()
        #expect(await store.state.events == ["a", "failed: boom"])
    }

    @Test func withoutCatchTheErrorIsLogged() async {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Script.Action.self)
        continuation.finish(throwing: TestError(description: "boom"))
        let lines = Recorder<String>()
        let store = Store(
            reducer: Script(script: { $0 == .trigger("go") ? .sequence(stream).cancellable("feed") : .none }),
            state: .init(),
            name: "feeds",
            logger: { lines.append($0) }
        )
        _ = await store.send(.trigger("go"))
        await store.untilIdle()
        #expect(lines.values == ["store feeds: effect feed failed: boom"])
    }

    @Test func cancellingEndsAnAsyncStreamsIteration() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Script.Action.self)
        let terminated = Gate()
        continuation.onTermination = { _ in terminated.open() }
        let store = Store(
            reducer: Script(script: { action in
                switch action {
                case .trigger("go"): .sequence(stream).cancellable("s")
                case .trigger("stop"): .cancel("s")
                default: .none
                }
            }),
            state: .init()
        )
        _ = await store.send(.trigger("go"))
        continuation.yield(.event("a"))
        #expect(await eventually { await store.state.events == ["a"] })
        _ = await store.send(.trigger("stop"))
        await terminated.wait()
        await store.untilIdle()
        #expect(await store.runningEffectCount == 0)
        #expect(await store.state.events == ["a"])
    }

    @Test func cancellingEndsTheIterationOfASequenceThatIgnoresCancellation() async {
        let ticks = UncancellableTicks(release: Gate(), asked: Gate(), nextCalls: Recorder())
        let store = Store(
            reducer: Script(script: { action in
                switch action {
                case .trigger("go"): .sequence(ticks).cancellable("s")
                case .trigger("stop"): .cancel("s")
                default: .none
                }
            }),
            state: .init()
        )
        _ = await store.send(.trigger("go"))
        await ticks.asked.wait()
        _ = await store.send(.trigger("stop"))
        // The pending `next()` returns a tick; it is not sent and `next()` is not called again.
        ticks.release.open()
        await store.untilIdle()
        #expect(ticks.nextCalls.values.count == 1)
        #expect(await store.state.ticks == 0)
    }
}
