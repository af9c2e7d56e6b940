import Foundation
import Locking

/// A multi-producer queue with a "drain scheduled" flag, guarded by one pthread mutex.
///
/// Producers call ``push(_:)`` from any thread; it reports whether the caller must schedule a
/// drain. The single consumer calls ``takeAll()`` until it returns an empty batch; the empty
/// result clears the flag under the same lock, so an item pushed concurrently either lands in a
/// batch the consumer still takes or sees the flag cleared and schedules a new drain (no lost
/// wakeup). Items come out in exactly the order the lock admitted their pushes.
///
/// One heap block (80 bytes of malloc on 64-bit Linux): the queue behind a `Locked` (a pthread mutex and the queue
/// in one `ManagedBuffer`; see `Locked` for why not `Synchronization.Mutex`). A struct: a copy shares the block.
///
/// ## Thread safety
/// Sendable: the queue is read and written only while the lock is held.
struct Mailbox<Item: Sendable>: Sendable {
    /// The guarded state.
    struct Queue {
        var items: [Item] = []
        var drainScheduled = false
    }

    private let queue = Locked(Queue())
    /// The items an empty queue makes room for on its first push.
    static var firstCapacity: Int { 16 }

    /// A new, empty mailbox.
    init() {}

    /// Runs `body` on the queue with the lock held.
    private func locked<T>(_ body: (inout Queue) -> T) -> T {
        queue.withLock(body)
    }

    /// Appends `item`.
    ///
    /// - Returns: `true` if no drain was scheduled: the caller must now schedule exactly one.
    func push(_ item: Item) -> Bool {
        locked { queue in
            // Room for a small batch at once (not 1, 2, 4, 8, 16: five allocations for a turn's 16 actions); the
            // storage leaves with the batch, so an idle mailbox holds none.
            if queue.items.capacity == 0 { queue.items.reserveCapacity(Self.firstCapacity) }
            queue.items.append(item)
            if queue.drainScheduled { return false }
            queue.drainScheduled = true
            return true
        }
    }

    /// Removes and returns every queued item, oldest first.
    ///
    /// - Returns: The batch; empty means the queue was empty, and the drain is then marked as no
    ///   longer scheduled (the consumer must stop).
    func takeAll() -> [Item] {
        locked { queue in
            if queue.items.isEmpty {
                queue.drainScheduled = false
                return []
            }
            let batch = queue.items
            queue.items = []
            return batch
        }
    }

    /// Whether no item is queued (a drain may still be scheduled).
    var isEmpty: Bool {
        locked { $0.items.isEmpty }
    }
}
