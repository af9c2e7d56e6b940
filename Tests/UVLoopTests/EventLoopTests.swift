import Foundation
import StatehouseTestClients
import Testing
import UVLoop
import Synchronization
import Locking

@Suite(.timeLimit(.minutes(1)))
struct EventLoopTests {
    /// Jobs from many threads all run exactly once, on the loop thread, each thread's jobs in its order.
    @Test func executeFromManyThreadsDeliversEveryJobInOrder() throws {
        let loop = try EventLoop()
        loop.start()
        defer { loop.stop() }
        let threads = 8, jobs = 5000
        let done = DispatchSemaphore(value: 0)
        let log = JobLog(threads: threads)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<jobs {
                loop.execute {
                    log.record(thread: thread, index: index, onLoop: loop.isInLoop)
                    if log.total == threads * jobs { done.signal() }
                }
            }
        }
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(log.inOrder)
        #expect(log.allOnLoop)
    }

    /// The loop thread carries ``EventLoop/threadName`` where the kernel shows it (the scaling benchmark reads each
    /// loop's CPU time from `/proc/PID/task/TID` by that name).
    @Test func loopThreadIsNamedForTheKernel() throws {
        let loop = try EventLoop()
        loop.start()
        defer { loop.stop() }
        let name = try loop.submitAndWait { try String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) }
        #expect(name == EventLoop.threadName + "\n")
        #expect(EventLoop.threadName.utf8.count <= 15)
    }

    /// A TCP echo over the loop; afterwards every handle is closed and the loop ends cleanly.
    @Test func tcpEchoThenNoHandleLeft() throws {
        let loop = try EventLoop()
        loop.start()
        let port = try loop.submitAndWait {
            try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { connection in
                connection.onRead = { bytes in connection.write(Array(bytes)) }
                connection.onEnd = { _ in connection.closeAfterWrites() }
                connection.startReading()
            }.port
        }
        let socket = try TestSocket(port: UInt16(port))
        try socket.send("hello, loop")
        socket.shutdownWrite()
        let echoed = try socket.receiveUntilClosed(deadline: .now + .seconds(5))
        socket.close()
        #expect(String(decoding: echoed, as: UTF8.self) == "hello, loop")
        // Only the listener stays: the echo connection (and its linger timer) close once our FIN is seen.
        let deadline = ContinuousClock.now + .seconds(5)
        var open = try loop.submitAndWait { loop.openHandleCount }
        while open != 1, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.005)  // polling with a deadline, not synchronising by sleep
            open = try loop.submitAndWait { loop.openHandleCount }
        }
        #expect(open == 1)
        loop.stop()
        #expect(loop.openHandleCount == 0)
    }
}

/// Thread-safe record of which jobs ran (tests only).
final class JobLog: @unchecked Sendable {
    private let lock = Locked(())  // guards the vars below
    private var next: [Int]
    private var count = 0
    private var ordered = true
    private var onLoop = true

    init(threads: Int) { next = Array(repeating: 0, count: threads) }

    func record(thread: Int, index: Int, onLoop: Bool) {
        lock.withLock {
            if next[thread] != index { ordered = false }
            next[thread] = index + 1
            count += 1
            if !onLoop { self.onLoop = false }
        }
    }

    var total: Int { lock.withLock { count } }
    var inOrder: Bool { lock.withLock { ordered } }
    var allOnLoop: Bool { lock.withLock { onLoop } }
}
