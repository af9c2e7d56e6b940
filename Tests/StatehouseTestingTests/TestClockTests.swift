import StatehouseTesting
import Testing

/// Records wake-ups on one actor, so woken sleepers append in the order they were resumed.
private actor WakeLog {
    private(set) var labels: [String] = []

    func sleep(_ label: String, until deadline: TestClock.Instant, on clock: TestClock) async throws {
        try await clock.sleep(until: deadline)
        labels.append(label)
    }
}

@Suite struct TestClockTests {
    @Test func startsAtZeroAndSleepsAtOrBeforeNowReturnAtOnce() async throws {
        let clock = TestClock()
        #expect(clock.now == .zero)
        try await clock.sleep(until: .zero)
        try await clock.sleep(for: .seconds(-1))
        #expect(clock.sleeperCount == 0)
    }

    @Test func advanceResumesOnlyDueSleepersAndSetsNow() async throws {
        let clock = TestClock()
        let short = Task { try await clock.sleep(for: .seconds(1)) }
        let long = Task { try await clock.sleep(for: .seconds(10)) }
        #expect(await clock.waitForSleepers(2))
        await clock.advance(by: .seconds(2))
        try await short.value
        #expect(clock.now == TestClock.Instant(offset: .seconds(2)))
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(10))])
        await clock.advance(to: TestClock.Instant(offset: .seconds(10)))
        try await long.value
        #expect(clock.sleeperCount == 0)
    }

    @Test func sleepersAreResumedInDeadlineOrderThenRegistrationOrder() async throws {
        let clock = TestClock()
        let log = WakeLog()
        let specs: [(String, Int)] = [("c", 3), ("a", 1), ("b1", 2), ("b2", 2)]
        var tasks: [Task<Void, any Error>] = []
        for (count, (label, seconds)) in specs.enumerated() {
            tasks.append(Task { try await log.sleep(label, until: .zero.advanced(by: .seconds(seconds)), on: clock) })
            // Park one at a time so registration order is known for the tie.
            #expect(await clock.waitForSleepers(count + 1))
        }
        await clock.advance(by: .seconds(5))
        for task in tasks { try await task.value }
        #expect(await log.labels == ["a", "b1", "b2", "c"])
        #expect(clock.now == .zero.advanced(by: .seconds(5)))
    }

    @Test func aTargetInThePastLeavesTimeUnchanged() async {
        let clock = TestClock()
        await clock.advance(by: .seconds(3))
        await clock.advance(to: .zero.advanced(by: .seconds(1)))
        await clock.advance(by: .seconds(-2))
        #expect(clock.now == .zero.advanced(by: .seconds(3)))
    }

    @Test func aRepeatingSleeperFiresOncePerPeriod() async throws {
        let clock = TestClock()
        let log = WakeLog()
        let timer = Task {
            for tick in 1...3 {
                try await log.sleep("tick\(tick)", until: clock.now.advanced(by: .seconds(1)), on: clock)
            }
        }
        for _ in 1...3 {
            #expect(await clock.waitForSleepers(1))
            await clock.advance(by: .seconds(1))
        }
        try await timer.value
        #expect(await log.labels == ["tick1", "tick2", "tick3"])
    }

    @Test func cancellingASleeperThrowsAtOnceWithoutAnAdvance() async {
        let clock = TestClock()
        let task = Task { try await clock.sleep(for: .seconds(60)) }
        #expect(await clock.waitForSleepers(1))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == .zero)
    }

    @Test func anAlreadyCancelledTaskThrowsOnEntry() async {
        let clock = TestClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func runResumesEverySleeperAndEndsAtTheLastDeadline() async throws {
        let clock = TestClock()
        let tasks = [5, 1, 3].map { seconds in
            Task { try await clock.sleep(for: .seconds(seconds)) }
        }
        #expect(await clock.waitForSleepers(3))
        #expect(await clock.run())
        for task in tasks { try await task.value }
        #expect(clock.now == .zero.advanced(by: .seconds(5)))
    }

    @Test func runStopsAtMaxWakeUps() async throws {
        let clock = TestClock()
        let tasks = [1, 2, 3].map { seconds in
            Task { try await clock.sleep(for: .seconds(seconds)) }
        }
        #expect(await clock.waitForSleepers(3))
        #expect(await clock.run(maxWakeUps: 2) == false)
        #expect(clock.pendingDeadlines == [.zero.advanced(by: .seconds(3))])
        #expect(clock.now == .zero.advanced(by: .seconds(2)))
        await clock.advance(by: .seconds(1))
        for task in tasks { try await task.value }
    }

    @Test func waitForSleepersTimesOutWhenNobodySleeps() async {
        let clock = TestClock()
        #expect(await clock.waitForSleepers(1, timeout: .milliseconds(20)) == false)
    }

    @Test func worksAsAnyClockOfDuration() async throws {
        let clock = TestClock()
        let erased: any Clock<Duration> = clock
        let task = Task { try await erased.sleep(for: .milliseconds(250)) }
        #expect(await clock.waitForSleepers(1))
        await clock.advance(by: .milliseconds(250))
        try await task.value
    }

    @Test func instantArithmetic() {
        let start = TestClock.Instant.zero
        let later = start.advanced(by: .seconds(2))
        #expect(start < later)
        #expect(start.duration(to: later) == .seconds(2))
        #expect(later.duration(to: start) == .seconds(-2))
        #expect(later.offset == .seconds(2))
    }
}
