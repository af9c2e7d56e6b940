import StatehouseCore
import StatehouseTestClients
import Testing

@Suite struct SettleTests {
    /// step1 → effect → step2 → effect (waits for `release`) → event "x" → effect → "done".
    private func chainStore(_ reachedStep2: Gate, _ release: Gate, clock: ManualClock? = nil) -> Store<Script> {
        let reducer = Script(script: { action in
            switch action {
            case .trigger("step1"): .single { .trigger("step2") }
            case .trigger("step2"):
                .sequence { send in
                    reachedStep2.open()
                    await release.wait()
                    await send(.event("x"))
                }
            case .event("x"): .merge(.just(.event("y")), .single { .event("done") })
            default: .none
            }
        })
        if let clock {
            return Store(reducer: reducer, state: .init(), clock: clock)
        }
        return Store(reducer: reducer, state: .init())
    }

    @Test func returnsOnlyAfterTheWholeChainFinished() async throws {
        let reached = Gate()
        let release = Gate()
        let store = chainStore(reached, release)
        let outcome = Recorder<Snapshot<Script.State>>()
        let finished = Gate()
        // The completion runs on the actor, so once `send(probe)` returned it would have run already.
        store.enqueueAndSettle(.trigger("step1"), timeout: .seconds(30)) { result in
            if case .success(let snapshot) = result { outcome.append(snapshot) }
            finished.open()
        }
        await reached.wait()
        _ = await store.send(.event("probe"))
        #expect(outcome.values.isEmpty)
        release.open()
        await finished.wait()
        let snapshot = try #require(outcome.values.first)
        #expect(snapshot.state.events.sorted() == ["done", "probe", "x", "y"])
        #expect(await store.openSettleGroupCount == 0)
    }

    @Test func asyncFormReturnsTheSettledSnapshot() async throws {
        let reached = Gate()
        let release = Gate()
        let store = chainStore(reached, release)
        release.open()
        let snapshot = try await store.sendAndSettle(.trigger("step1"), timeout: .seconds(30))
        #expect(snapshot.state.events.sorted() == ["done", "x", "y"])
    }

    @Test func actionWithoutEffectsSettlesRightAway() async throws {
        let store = Store(reducer: Tally(), state: .init())
        let snapshot = try await store.sendAndSettle(.increment, timeout: .seconds(30))
        #expect(snapshot.version == 1)
    }

    @Test func timesOutWithTheSnapshotAtTheDeadlineWhileEffectsKeepRunning() async throws {
        let clock = ManualClock()
        let reached = Gate()
        let release = Gate()
        let store = chainStore(reached, release, clock: clock)
        let outcome = Recorder<Result<Snapshot<Script.State>, SettleTimeout<Script.State>>>()
        let finished = Gate()
        store.enqueueAndSettle(.trigger("step1"), timeout: .seconds(5)) { result in
            outcome.append(result)
            finished.open()
        }
        await reached.wait()
        _ = await store.send(.event("probe"))
        clock.advance(by: .seconds(4))
        #expect(outcome.values.isEmpty)
        clock.advance(by: .seconds(1))
        await finished.wait()
        let result = try #require(outcome.values.first)
        guard case .failure(let timeout) = result else {
            Issue.record("expected a timeout, got \(result)")
            return
        }
        #expect(timeout.snapshot.state.events == ["probe"])
        #expect(timeout.timeout == .seconds(5))
        // The effects were not cancelled.
        release.open()
        await store.untilIdle()
        #expect(await store.state.events.sorted() == ["done", "probe", "x", "y"])
        #expect(outcome.values.count == 1)
    }

    @Test func asyncFormThrowsSettleTimeout() async {
        let clock = ManualClock()
        let release = Gate()
        let store = Store(
            reducer: Script(script: { action in
                action == .trigger("go") ? .sequence { _ in await release.wait() } : .none
            }),
            state: .init(),
            clock: clock
        )
        let caller = Task { () async throws(SettleTimeout<Script.State>) -> Snapshot<Script.State> in
            try await store.sendAndSettle(.trigger("go"), timeout: .milliseconds(100))
        }
        #expect(await eventually { await store.openSettleGroupCount == 1 })
        clock.advance(by: .milliseconds(100))
        let result = await caller.result
        #expect(throws: SettleTimeout<Script.State>.self) { try result.get() }
        release.open()
        await store.untilIdle()
    }

    @Test func thousandConcurrentCallsEachSettleOnTheirOwnEffects() async throws {
        let store = Store(
            reducer: Script(script: { action in
                guard case .spawn(let number) = action else { return .none }
                return .single { .event("\(number)") }
            }),
            state: .init()
        )
        let settled = await withTaskGroup(of: Bool.self, returning: Int.self) { group in
            for number in 0..<1_000 {
                group.addTask {
                    guard let snapshot = try? await store.sendAndSettle(.spawn(number), timeout: .seconds(60))
                    else { return false }
                    return snapshot.state.events.contains("\(number)")
                }
            }
            var count = 0
            for await ok in group where ok { count += 1 }
            return count
        }
        #expect(settled == 1_000)
        #expect(await store.state.events.count == 1_000)
        #expect(await store.openSettleGroupCount == 0)
    }
}
