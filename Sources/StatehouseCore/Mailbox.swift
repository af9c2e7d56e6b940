import Foundation

/// A multi-producer queue with a "drain scheduled" flag, guarded by one pthread mutex.
///
/// Producers call ``push(_:)`` from any thread; it reports whether the caller must schedule a
/// drain. The single consumer calls ``takeAll()`` until it returns an empty batch; the empty
/// result clears the flag under the same lock, so an item pushed concurrently either lands in a
/// batch the consumer still takes or sees the flag cleared and schedules a new drain (no lost
/// wakeup). Items come out in exactly the order the lock admitted their pushes.
///
/// One heap block (80 bytes of malloc on 64-bit Linux): the queue state is a `ManagedBuffer`'s header and the
/// `pthread_mutex_t` its single tail element, so there is no separate lock object. A struct: a copy shares the buffer.
///
/// Why a pthread mutex, the one lock in Statehouse that is not `Synchronization.Mutex`: ThreadSanitizer does not
/// see `Mutex`'s futex slow path, so under contention (every store's mailbox is pushed from many threads) it reports
/// races that are not there; it does see pthread mutexes. A Foundation lock object would do as well for TSan but
/// costs two more heap blocks (96 bytes) per mailbox, i.e. per store.
///
/// ## Thread safety
/// `@unchecked Sendable`: the queue is read and written only while the mutex is held.
struct Mailbox<Item: Sendable>: @unchecked Sendable {
    /// The guarded state.
    struct Queue {
        var items: [Item] = []
        var drainScheduled = false
    }

    /// The heap block: the queue as header, the mutex as the single element; destroys the mutex when freed.
    private final class Buffer: ManagedBuffer<Queue, pthread_mutex_t> {
        deinit {
            _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        }
    }

    private let buffer: Buffer
    /// The items an empty queue makes room for on its first push.
    static var firstCapacity: Int { 16 }

    /// A new, empty mailbox with an initialized mutex.
    init() {
        let buffer = unsafeDowncast(Buffer.create(minimumCapacity: 1) { _ in Queue() }, to: Buffer.self)
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            _ = pthread_mutex_init(mutex, nil)
        }
        self.buffer = buffer
    }

    /// Runs `body` on the queue with the mutex held.
    private func locked<T>(_ body: (inout Queue) -> T) -> T {
        buffer.withUnsafeMutablePointers { queue, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body(&queue.pointee)
        }
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
