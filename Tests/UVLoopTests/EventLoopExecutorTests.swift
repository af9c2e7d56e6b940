import Foundation
import Testing
import UVLoop

/// The loop as a `SerialExecutor`: an actor bound to it runs on the loop thread, in one queue with `execute`.
@Suite(.timeLimit(.minutes(1)))
struct EventLoopExecutorTests {
    /// Calls from many tasks all run on the loop thread, one at a time (the count is exact).
    @Test func boundActorRunsOnTheLoopThread() async throws {
        let loop = try EventLoop()
        loop.start()
        defer { loop.stop() }
        let tally = LoopTally(loop: loop)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<500 { await tally.add() }
                }
            }
        }
        #expect(await tally.count == 4000)
        #expect(await tally.offLoop == 0)
    }

    /// A job the loop runs may enter the actor synchronously (`assumeIsolated` asks the loop, which says yes), and
    /// jobs and actor calls keep one order.
    @Test func loopJobsMayAssumeTheActorsIsolation() async throws {
        let loop = try EventLoop()
        loop.start()
        defer { loop.stop() }
        let tally = LoopTally(loop: loop)
        await tally.add()
        let counted = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            loop.execute {
                let count = tally.assumeIsolated { tally in
                    tally.addSynchronously()
                    return tally.count
                }
                continuation.resume(returning: count)
            }
        }
        #expect(counted == 2)
    }

    /// Jobs queued before the loop starts wait for it and then run.
    @Test func jobsBeforeStartRunOnceTheLoopRuns() async throws {
        let loop = try EventLoop()
        defer { loop.stop() }
        let tally = LoopTally(loop: loop)
        let call = Task { await tally.add() }
        loop.start()
        await call.value
        #expect(await tally.count == 1)
        #expect(await tally.offLoop == 0)
    }
}

/// Counts calls and notes any that ran off the loop thread (tests only).
actor LoopTally {
    let loop: EventLoop
    var count = 0
    var offLoop = 0

    init(loop: EventLoop) { self.loop = loop }

    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    func add() { addSynchronously() }

    func addSynchronously() {
        count += 1
        if !loop.isInLoop { offLoop += 1 }
    }
}
