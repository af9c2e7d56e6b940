/// The loop as a Swift concurrency executor.
///
/// An actor whose `unownedExecutor` returns ``asUnownedSerialExecutor()`` runs every job on the loop thread, in one
/// queue with ``EventLoop/execute(_:)``: code the loop runs and code the actor runs never overlap, and a job the loop
/// thread enqueues while it drains the queue costs no wake-up. `assumeIsolated` on such an actor succeeds on the loop
/// thread (``checkIsolated()``).
///
/// It is a `TaskExecutor` too (SE-0417): a task made with `Task(executorPreference: loop)` runs its nonisolated code,
/// and the code of default actors it calls, on the loop thread instead of Swift's cooperative pool. `Server.start()`
/// starts its stores that way, so it never waits on the pool (a caller blocking every pool thread, e.g. tests starting
/// two servers at once on a 2-core machine, deadlocked it).
///
/// ## Thread safety
/// Every method may be called from any thread. Jobs enqueued after ``EventLoop/stop()`` are dropped, so the tasks
/// they belong to never resume: stop what runs on the loop before stopping the loop.
extension EventLoop: SerialExecutor {
    /// One queued job: a closure from ``EventLoop/execute(_:)`` or a partial task from the concurrency runtime.
    enum Job {
        case closure(@Sendable () -> Void)
        case task(UnownedJob)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        enqueue(.task(UnownedJob(job)))
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Traps unless called on the loop thread (the runtime asks when `assumeIsolated` cannot tell otherwise).
    public func checkIsolated() {
        preconditionInLoop()
    }

    /// Whether the caller runs on the loop thread.
    public func isIsolatingCurrentContext() -> Bool? {
        isInLoop
    }

    /// Runs one queued job (loop thread only): a task's job runs isolated to the loop, with the loop as its task
    /// executor (the same `enqueue` receives both kinds of job).
    func run(_ job: Job) {
        switch job {
        case .closure(let body): body()
        case .task(let task):
            task.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        }
    }
}

extension EventLoop: TaskExecutor {
    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }
}
