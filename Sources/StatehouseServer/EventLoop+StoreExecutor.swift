public import StatehouseCore
public import UVLoop

/// Stores run on the event loops: a store's drains, observers and replies are jobs of its loop, and one drain job
/// runs about one turn budget (2 ms) at most.
extension EventLoop: StoreExecutor {
    public var drainSliceBudget: Duration? { .nanoseconds(Int64(EventLoop.turnBudgetNs)) }
}
