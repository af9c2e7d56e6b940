public import StatehouseCore
public import UVLoop

/// Stores run on the event loops: a store's drains, observers and replies are jobs of its loop.
extension EventLoop: StoreExecutor {}
