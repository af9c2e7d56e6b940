/// An executor a ``Store`` can be bound to instead of running on Swift's concurrency pool, such as an event loop.
///
/// A store bound to one runs its drains, observers and completions as the executor's jobs, so work that already runs
/// there (an event loop answering requests) reaches the store and hears back without a thread hand-off.
///
/// ## Thread safety
/// Every requirement must be callable from any thread.
public protocol StoreExecutor: SerialExecutor {
    /// Runs `job` on the executor, after the jobs enqueued before it.
    func execute(_ job: @escaping @Sendable () -> Void)

    /// How long one job of a store's drain may run before it leaves the rest of its backlog to its next job, behind
    /// the executor's other jobs (an event loop's turn budget), or nil for no time limit (only the count of
    /// ``Store`` actions per slice). Default: nil.
    var drainSliceBudget: Duration? { get }
}

extension StoreExecutor {
    public var drainSliceBudget: Duration? { nil }
}

/// Where a store's isolated code runs.
enum StoreHome: Sendable {
    /// Swift's concurrency pool, serialized by a private actor that exists only to lend its executor.
    case pool(HomeActor)
    /// A caller-provided executor.
    case bound(any StoreExecutor)

    /// The executor the store's actor reports.
    var unownedExecutor: UnownedSerialExecutor {
        switch self {
        case .pool(let actor): actor.unownedExecutor
        case .bound(let executor): executor.asUnownedSerialExecutor()
        }
    }
}

/// An actor with no state: a store on the pool shares its default executor.
actor HomeActor {}
