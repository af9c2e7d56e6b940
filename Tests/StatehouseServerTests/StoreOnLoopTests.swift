import DemoReducers
import Foundation
import StatehouseCore
import Testing
import UVLoop
import Synchronization
import Locking

/// A store bound to an event loop (as the server binds every store): reducers and observers run on the loop thread,
/// actions from many tasks stay FIFO and exact, and effects (on the pool) come back to it.
@Suite(.timeLimit(.minutes(1)))
struct StoreOnLoopTests {
    @Test func actionsObserversAndEffectsRunOnTheLoop() async throws {
        let loop = try EventLoop()
        loop.start()
        defer { loop.stop() }
        let store = Store(reducer: Counter(), state: Counter.State(), name: "on-loop", executor: loop)
        let seen = SeenOnLoop()
        _ = await store.observe { snapshot in seen.record(snapshot.version, onLoop: loop.isInLoop) }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<250 { _ = await store.send(.increment) }
                }
            }
        }
        // An effect: a delayed increment runs on the pool and is reduced back on the loop.
        let settled = try await store.sendAndSettle(.incrementLater(ms: 1), timeout: .seconds(10))
        #expect(settled.state.count == 1001)
        #expect(settled.version == 1001)
        #expect(seen.versions == Array(1...1001))
        #expect(seen.allOnLoop)
        let stopped = await withCheckedContinuation { continuation in
            store.enqueueStop { snapshot in continuation.resume(returning: loop.isInLoop ? snapshot.version : 0) }
        }
        #expect(stopped == 1001)
    }

    /// A long run of queued actions is handled in slices: a loop job queued behind it runs before the run is done,
    /// and every version still comes once, in order.
    @Test func aLongBatchLetsOtherLoopJobsRunBetweenSlices() async throws {
        let loop = try EventLoop()
        loop.start()
        defer { loop.stop() }
        let store = Store(reducer: Counter(), state: Counter.State(), name: "sliced", executor: loop)
        let seen = SeenOnLoop()
        _ = await store.observe { snapshot in seen.record(snapshot.version, onLoop: loop.isInLoop) }
        let seenByMarker = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            loop.execute {
                for _ in 0..<1000 { store.enqueue(.increment) }
                loop.execute { continuation.resume(returning: seen.versions.count) }
            }
        }
        _ = await store.send(.increment)
        #expect(seenByMarker > 0 && seenByMarker < 1000, "the marker job saw \(seenByMarker) versions")
        #expect(seen.versions == Array(1...1001))
        #expect(seen.allOnLoop)
    }

    /// A slice also ends once it has run for the loop's 2 ms budget: with actions that take about 200 µs each (an
    /// observer that spins, standing for a slow reduce or a big encode), a job queued behind 300 of them runs after
    /// about ten to sixteen, not after a whole slice of 256.
    @Test func aSlowBatchEndsItsSliceAfterTheLoopsTurnBudget() async throws {
        let loop = try EventLoop()
        loop.start()
        defer { loop.stop() }
        let store = Store(reducer: Counter(), state: Counter.State(), name: "slow", executor: loop)
        let seen = SeenOnLoop()
        _ = await store.observe { snapshot in
            seen.record(snapshot.version, onLoop: loop.isInLoop)
            let until = ContinuousClock.now + .microseconds(200)
            while ContinuousClock.now < until {}
        }
        let seenByMarker = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            loop.execute {
                for _ in 0..<300 { store.enqueue(.increment) }
                loop.execute { continuation.resume(returning: seen.versions.count) }
            }
        }
        _ = await store.send(.increment)
        #expect(seenByMarker > 0 && seenByMarker < 100, "the marker job saw \(seenByMarker) versions")
        #expect(seen.versions == Array(1...301))
    }
}

/// Versions an observer saw, and whether each call ran on the loop (tests only).
final class SeenOnLoop: @unchecked Sendable {
    private let lock = Locked(())  // guards the vars below
    private var seen: [UInt64] = []
    private var onLoop = true

    func record(_ version: UInt64, onLoop: Bool) {
        lock.withLock {
            seen.append(version)
            if !onLoop { self.onLoop = false }
        }
    }

    var versions: [UInt64] { lock.withLock { seen } }
    var allOnLoop: Bool { lock.withLock { onLoop } }
}
