import Foundation

/// A multi-producer queue with a "drain scheduled" flag, guarded by one `NSLock`.
///
/// Producers call ``push(_:)`` from any thread; it reports whether the caller must schedule a
/// drain. The single consumer calls ``takeAll()`` until it returns an empty batch; the empty
/// result clears the flag under the same lock, so an item pushed concurrently either lands in a
/// batch the consumer still takes or sees the flag cleared and schedules a new drain (no lost
/// wakeup). Items come out in exactly the order the lock admitted their pushes.
///
/// ## Thread safety
/// `@unchecked Sendable`: every stored property is read and written only while `lock` is held.
/// `NSLock` (pthread) rather than `Synchronization.Mutex`, which gives false TSan reports.
final class Mailbox<Item: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Item] = []
    private var drainScheduled = false

    /// Appends `item`.
    ///
    /// - Returns: `true` if no drain was scheduled: the caller must now schedule exactly one.
    func push(_ item: Item) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        items.append(item)
        if drainScheduled { return false }
        drainScheduled = true
        return true
    }

    /// Removes and returns every queued item, oldest first.
    ///
    /// - Returns: The batch; empty means the queue was empty, and the drain is then marked as no
    ///   longer scheduled (the consumer must stop).
    func takeAll() -> [Item] {
        lock.lock()
        defer { lock.unlock() }
        if items.isEmpty {
            drainScheduled = false
            return []
        }
        let batch = items
        items = []
        return batch
    }

    /// Whether no item is queued (a drain may still be scheduled).
    var isEmpty: Bool {
        lock.lock()
        defer { lock.unlock() }
        return items.isEmpty
    }
}
