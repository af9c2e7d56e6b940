public import StatehouseCore
public import UVLoop

/// Stores run on the event loops: a store's drains, observers and replies are jobs of its loop, and a drain ends its
/// slice early once the loop's turn has used its budget (``EventLoop/isTurnBudgetSpent``).
extension EventLoop: StoreExecutor {
    public var shouldYield: Bool { isInLoop && isTurnBudgetSpent }
}
