import Foundation
import Synchronization
internal import CLibUV
public import Locking

/// A libuv event loop running on a thread of its own.
///
/// Every handle of the loop (listeners, connections, timers) is used only on the loop's thread. Other threads reach
/// the loop through one door, ``execute(_:)``: a lock-protected job queue plus `uv_async_send`, whose wake-ups libuv
/// coalesces, so each wake-up drains the whole queue in order. A job enqueued by the loop thread while the queue is
/// being drained runs in the same drain, with no wake-up at all.
///
/// The loop is also a `SerialExecutor` (see `EventLoop+Executor.swift`): an actor whose `unownedExecutor` is the
/// loop's runs its jobs on the loop thread, in the same queue as ``execute(_:)``.
///
/// ## Thread safety
/// ``execute(_:)``, ``isInLoop``, ``stop()`` and the executor methods may be called from any thread; everything else
/// about the loop's handles is confined to the loop thread.
public final class EventLoop: @unchecked Sendable {
    let uvLoop: UnsafeMutablePointer<uv_loop_t>
    private let door: UnsafeMutablePointer<uv_async_t>
    /// A prepare handle (run before each poll) that times the loop's turns: see `EventLoop+TurnTimes.swift`.
    let turnWatch: UnsafeMutablePointer<uv_prepare_t>
    /// How long each turn of the loop worked, from its poll returning to the next poll (time blocked waiting for I/O
    /// is not counted): ``DurationHistogram/turnBoundsNs``. Recorded on the loop thread, readable anywhere.
    public let turnTimes = DurationHistogram(upperBoundsNs: DurationHistogram.turnBoundsNs)
    /// `uv_hrtime` and the loop's idle time (ns) at the last prepare; 0 before the first (loop thread only).
    @exclusivity(unchecked) var lastTurnMark: (time: UInt64, idle: UInt64) = (0, 0)
    /// The door's job queue and the loop's lifecycle, behind one lock (the project's `Locked`: a pthread mutex, no
    /// system call unless contended).
    private let queue = Locked(Queue())
    /// The loop thread's `pthread_self()`, 0 before it starts: read without the lock by ``isInLoop``.
    private let loopThread = Atomic<UInt>(0)
    private let finished = DispatchSemaphore(value: 0)
    /// One read buffer for every connection of the loop: reads are handed out synchronously and consumers copy
    /// what they keep, so sharing it is safe on the single loop thread.
    let readBuffer = UnsafeMutableRawPointer.allocate(byteCount: EventLoop.readBufferSize, alignment: 16)
    static let readBufferSize = 65536
    /// Scratch `uv_buf_t` vectors for gathered writes (loop thread only, so no dynamic exclusivity checks; libuv
    /// copies them into a write request). Measured for every `@exclusivity(unchecked)` of the loop (issue 14,
    /// callgrind, release, http-actions): the checks would cost about 600 instructions per request (`runJobs` 308,
    /// `flushGatheredWrites` 230, `enqueue` 76) of 54,600.
    @exclusivity(unchecked) private var writeVectors = UnsafeMutablePointer<uv_buf_t>.allocate(capacity: 16)
    @exclusivity(unchecked) private var writeVectorCapacity = 16

    private enum State { case created, running, stopping, stopped }

    private struct Queue {
        var jobs: [Job] = []
        var state: State = .created
    }

    /// Creates the loop and its door. Call ``start()`` to run it.
    /// - Throws: `UVError` when libuv cannot initialise the loop.
    public init() throws(UVError) {
        uvLoop = .allocate(capacity: 1)
        door = .allocate(capacity: 1)
        turnWatch = .allocate(capacity: 1)
        try UVError.check(uv_loop_init(uvLoop), "uv_loop_init")
        try UVError.check(uv_async_init(uvLoop, door) { handle in
            guard let raw = handle?.pointee.data else { return }
            Unmanaged<EventLoop>.fromOpaque(raw).takeUnretainedValue().runJobs()
        }, "uv_async_init")
        door.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        uvLoop.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        try startTurnTimes()
    }

    deinit {
        door.deallocate()
        turnWatch.deallocate()
        uvLoop.deallocate()
        readBuffer.deallocate()
        writeVectors.deallocate()
    }

    /// Room for `count` write vectors, valid until the next call (loop thread only).
    func scratchWriteVectors(_ count: Int) -> UnsafeMutablePointer<uv_buf_t> {
        assertInLoop()
        if count > writeVectorCapacity {
            writeVectors.deallocate()
            writeVectorCapacity = max(count, writeVectorCapacity * 2)
            writeVectors = .allocate(capacity: writeVectorCapacity)
        }
        return writeVectors
    }

    /// The loop's clock in milliseconds (libuv's `uv_now`: read once per loop turn, the base of timer deadlines).
    /// Loop thread only.
    public var now: UInt64 {
        assertInLoop()
        return uv_now(uvLoop)
    }

    /// How many threads can run in parallel for this process: the CPUs in its affinity mask (`taskset`), at least 1
    /// (libuv's `uv_available_parallelism`).
    public static var availableParallelism: Int { Int(uv_available_parallelism()) }

    /// The name of every loop thread, as the kernel shows it (`/proc/PID/task/TID/comm`, `top -H`; at most 15 bytes):
    /// `Benchmarks/lib/scaling.sh` reads each loop's CPU time by it.
    public static let threadName = "statehouse-loop"

    /// Names the calling thread for the kernel (`PR_SET_NAME`: `/proc/PID/task/TID/comm`, `top -H`; at most 15 bytes
    /// kept): Foundation's `Thread.name` does not reach the kernel on Linux. For the server's other threads (a cluster
    /// node's Redis workers), so that per-thread CPU can be read by name as for the loops.
    public static func nameCurrentThread(_ name: String) {
        _ = cuv_name_this_thread(name)
    }

    /// Starts the loop thread. The loop runs until ``stop()``.
    public func start() {
        queue.withLock {
            precondition($0.state == .created, "EventLoop.start() called twice")
            $0.state = .running
        }
        let thread = Thread { [self] in
            // Foundation's `Thread.name` does not reach the kernel on Linux; benchmarks find loop threads by this name.
            _ = cuv_name_this_thread(Self.threadName)
            loopThread.store(UInt(bitPattern: Int(bitPattern: pthread_self())), ordering: .releasing)
            uv_run(uvLoop, UV_RUN_DEFAULT)
            uv_loop_close(uvLoop)
            loopThread.store(0, ordering: .releasing)  // a later thread may get the same id
            queue.withLock { $0.state = .stopped }
            finished.signal()
        }
        thread.name = Self.threadName
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Runs `job` on the loop thread, after every job enqueued before it. Callable from any thread.
    /// Jobs enqueued before ``start()`` wait for it; jobs enqueued after ``stop()`` are dropped.
    public func execute(_ job: @escaping @Sendable () -> Void) {
        enqueue(.closure(job))
    }

    /// Queues `job`, and wakes the loop unless the loop thread itself is draining the queue (it will take the job
    /// before it stops).
    func enqueue(_ job: Job) {
        let wakeUp = !(isInLoop && isRunningJobs)
        queue.withLock {
            guard $0.state == .running || $0.state == .created else { return }
            $0.jobs.append(job)
            // Under the lock: ``stop()`` cannot have closed the door yet.
            if wakeUp { uv_async_send(door) }
        }
    }

    /// True once the loop thread has ended (after ``stop()``). Callable from any thread.
    public var isStopped: Bool { queue.withLock { $0.state == .stopped } }

    /// True when called on the loop thread.
    public var isInLoop: Bool {
        loopThread.load(ordering: .acquiring) == UInt(bitPattern: Int(bitPattern: pthread_self()))
    }

    /// In debug builds, traps unless called on the loop thread (or while no loop thread runs: before ``start()``,
    /// or once it has ended, the thread that owns the loop may look at it); in release builds, does nothing (`assert`
    /// compiles away, condition included). Every loop-confined type calls it at its entry points (as swift-nio's
    /// `assertInEventLoop`), so the confinement that `@exclusivity(unchecked)` and `@unchecked Sendable` rest on is
    /// checked by every debug test run.
    @inlinable
    public func assertInLoop(file: StaticString = #fileID, line: UInt = #line) {
        assert(isInLoopOrNotRunning, "must be called on the event loop thread", file: file, line: line)
    }

    /// True on the loop thread, and on any thread while no loop thread runs (what ``assertInLoop(file:line:)``
    /// checks).
    @usableFromInline
    var isInLoopOrNotRunning: Bool {
        let thread = loopThread.load(ordering: .acquiring)
        return thread == 0 || thread == UInt(bitPattern: Int(bitPattern: pthread_self()))
    }

    /// Traps unless called on the loop thread.
    public func preconditionInLoop(file: StaticString = #fileID, line: UInt = #line) {
        precondition(isInLoop, "must be called on the event loop thread", file: file, line: line)
    }

    /// Closes every handle still open, lets their close callbacks run, and ends the loop thread; returns when it has
    /// ended. Call from any thread but the loop's.
    public func stop() {
        let wasRunning = queue.withLock { queue -> Bool in
            guard queue.state == .running else { return false }
            queue.state = .stopping
            return true
        }
        guard wasRunning else { return }
        // The door refuses new jobs now; this last one is pushed directly.
        queue.withLock { $0.jobs.append(.closure { [self] in closeAllHandles() }) }
        uv_async_send(door)
        finished.wait()
    }

    /// Runs `body` on the loop thread and waits for its result. Never call it from the loop thread.
    /// - Throws: whatever `body` throws.
    public func submitAndWait<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        precondition(!isInLoop, "submitAndWait would deadlock on the loop thread")
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox<T>()
        execute {
            result.value = Result { try body() }
            done.signal()
        }
        done.wait()
        return try result.value!.get()
    }

    /// Blocks until the loop thread has ended (after ``stop()`` from elsewhere).
    public func waitUntilStopped() {
        finished.wait()
        finished.signal()
    }

    /// Runs queued jobs, including those they queue, until none is left or the turn has used ``turnBudgetNs``; then
    /// the loop polls its sockets before it takes the rest (so a long chain of jobs, such as a store working through
    /// a huge batch one slice per job, never keeps the other connections waiting for long).
    private func runJobs() {
        assertInLoop()
        isRunningJobs = true
        turnEnds = uv_hrtime() &+ Self.turnBudgetNs
        var overBudget = false
        while true {
            // Two arrays trade places: no allocation once both have grown.
            queue.withLock { swap(&$0.jobs, &runningJobs) }
            if runningJobs.isEmpty { break }
            for job in runningJobs { run(job) }
            runningJobs.removeAll(keepingCapacity: true)
            if uv_hrtime() > turnEnds {
                overBudget = true
                break
            }
        }
        isRunningJobs = false
        if overBudget {
            queue.withLock { if !$0.jobs.isEmpty, $0.state == .running { uv_async_send(door) } }
        }
        flushGatheredWrites()
    }

    /// How long one turn of the loop may run queued jobs before it polls the sockets again (see ``runJobs()``): 2 ms.
    public static let turnBudgetNs: UInt64 = 2_000_000

    /// When the current turn's budget ends (`uv_hrtime` ns; loop thread only).
    @exclusivity(unchecked) private var turnEnds: UInt64 = 0

    /// True while a job runs whose turn has used its ``turnBudgetNs`` (jobs included, and the writes they flushed).
    ///
    /// A long job that can be cut into slices (a fan-out to thousands of subscribers) checks this between slices and,
    /// once it is true, re-enqueues its rest with ``execute(_:)`` and returns: the loop then runs what other jobs are
    /// queued, polls its sockets, and takes the rest in a later turn. Reads the clock (`uv_hrtime`, ~20 ns). Loop
    /// thread only; false outside a job.
    public var isTurnBudgetSpent: Bool {
        assertInLoop()
        return isRunningJobs && uv_hrtime() > turnEnds
    }

    /// Sends the writes gathered so far in this batch of jobs now, one system call per connection (as
    /// `TCPConnection.write` gathers them), instead of when the batch ends.
    ///
    /// A job writing to many connections calls it between slices, before it checks ``isTurnBudgetSpent``: the
    /// system calls then count in the turn that caused them. Writes to one connection gathered before and after the
    /// call take two system calls instead of one. Loop thread only.
    public func flushGatheredWrites() {
        assertInLoop()
        guard !toFlush.isEmpty else { return }
        swap(&toFlush, &flushing)
        for connection in flushing { connection.flushGathered() }
        flushing.removeAll(keepingCapacity: true)
    }

    /// The batch of jobs being run, and of connections being flushed (loop thread only: no dynamic exclusivity
    /// checks, here and on `isRunningJobs` and `toFlush`, all touched for every batch).
    @exclusivity(unchecked) private var runningJobs: [Job] = []
    @exclusivity(unchecked) private var flushing: [TCPConnection] = []

    // MARK: Traffic counters (loop thread only)

    /// Bytes read from this loop's TCP connections since the loop was created (metrics). Loop thread only.
    @exclusivity(unchecked) public internal(set) var readBytes: UInt64 = 0
    /// Bytes this loop's TCP connections handed to the kernel since the loop was created (metrics): written, not
    /// merely accepted by ``TCPConnection/write(_:)``. Loop thread only.
    @exclusivity(unchecked) public internal(set) var writtenBytes: UInt64 = 0

    // MARK: Write gathering (loop thread only)

    /// True while jobs from ``execute(_:)`` run: connection writes are gathered until the batch ends. Written on the
    /// loop thread only; other threads read it only after ``isInLoop`` said they are the loop thread.
    @exclusivity(unchecked) private(set) var isRunningJobs = false
    @exclusivity(unchecked) private var toFlush: [TCPConnection] = []

    /// Remembers a connection with gathered writes, flushed when the current batch of jobs ends (or earlier, by
    /// ``flushGatheredWrites()``).
    func markForFlush(_ connection: TCPConnection) {
        assertInLoop()
        toFlush.append(connection)
    }

    private func closeAllHandles() {
        assertInLoop()
        for owner in Array(openHandles.values) { owner.closeHandle() }
        uv_close(UnsafeMutableRawPointer(door).assumingMemoryBound(to: uv_handle_t.self), nil)
        uv_close(cuv_prepare_as_handle(turnWatch), nil)
    }

    // MARK: Handle registry (loop thread only)

    /// Owners of open handles, keyed by the opaque pointer stored in their handle's `data`. The registry holds the
    /// strong reference that keeps an owner alive while its handle is open.
    private var openHandles: [UnsafeMutableRawPointer: any LoopHandleOwner] = [:]

    /// Registers `owner` and stores it in `handle.data`; call right after `uv_*_init`.
    func register(_ owner: any LoopHandleOwner, handle: UnsafeMutablePointer<uv_handle_t>) {
        assertInLoop()
        let key = Unmanaged.passUnretained(owner as AnyObject).toOpaque()
        handle.pointee.data = key
        openHandles[key] = owner
    }

    /// Closes `handle`; once libuv is done with it, its owner's ``LoopHandleOwner/handleDidClose()`` runs and the
    /// registry lets go of the owner.
    func close(_ handle: UnsafeMutablePointer<uv_handle_t>) {
        assertInLoop()
        uv_close(handle) { handle in
            guard let handle, let key = handle.pointee.data, let loop = handle.pointee.loop.pointee.data else { return }
            Unmanaged<EventLoop>.fromOpaque(loop).takeUnretainedValue().handleClosed(key)
        }
    }

    private func handleClosed(_ key: UnsafeMutableRawPointer) {
        assertInLoop()
        openHandles.removeValue(forKey: key)?.handleDidClose()
    }

    /// Number of handles open on this loop besides its door (tests assert it returns to zero).
    public var openHandleCount: Int {
        assertInLoop()
        return openHandles.count
    }
}

/// A Swift object that owns one libuv handle: it registers with its loop when the handle is initialised
/// (``EventLoop/register(_:handle:)``) and closes it through ``EventLoop/close(_:)``.
protocol LoopHandleOwner: AnyObject {
    /// Starts closing the handle (idempotent).
    func closeHandle()
    /// libuv has closed the handle; the owner is released right after this returns.
    func handleDidClose()
}

extension LoopHandleOwner {
    func handleDidClose() {}
}

private final class ResultBox<T>: @unchecked Sendable {
    var value: Result<T, any Error>?
}
