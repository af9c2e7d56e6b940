import Synchronization
import UVLoop
import Locking

/// The subscribers and version waiters of one store on one event loop, and the deliveries on their way to them.
///
/// The store hands each change (and each event) to ``enqueue(_:)``; one drain job at a time takes everything queued
/// as a *round* (``DeliveryRound``) and walks the round's subscribers in slices (see `StoreFanout+Delivery.swift`),
/// giving each subscriber all of the round's messages for its channel, in stream order, before the next subscriber.
/// A round ends before the next one starts, so a later version never overtakes an earlier one on this loop.
///
/// ## Thread safety
/// ``enqueue(_:)`` and ``isDelivering`` may be called from any thread (their queue has its own lock); `active` is
/// guarded by the owning ``StoreFanout``'s lock; everything else is confined to `loop`.
final class FanoutShard: @unchecked Sendable {
    let loop: EventLoop
    /// By channel, so a change looks each channel up once.
    var subscribers: [StreamChannel: SubscriberList] = [:]
    var waiters: [VersionWaiter] = []
    var active = 0
    /// How many subscribers ever left: a round that began at another count checks that each one is still here.
    private(set) var removals = 0
    /// The round being delivered, if any.
    var round: DeliveryRound?
    /// The newest version whose round has been delivered (0 before the first).
    var deliveredVersion: UInt64 = 0
    /// Catch-up messages given to this loop's subscribers since the shard was made: each one a subscriber that was
    /// behind (or resyncing) got one message to the newest state instead of every version it missed (metrics).
    var catchUps: UInt64 = 0
    /// Work that must follow the delivery of a version (acks), in the order given.
    private var afterDelivery: [(version: UInt64, body: () -> Void)] = []
    /// Deliveries not yet taken by a round, and whether a drain job is queued or running.
    private let queue = Locked(Queue())

    private struct Queue: Sendable {
        var deliveries: [FanoutDelivery] = []
        var draining = false
    }

    init(loop: EventLoop) { self.loop = loop }

    /// Whether `subscriber` (of `channel`) is still here.
    func contains(_ id: ObjectIdentifier, of channel: StreamChannel) -> Bool {
        loop.assertInLoop()
        return subscribers[channel]?.contains(id) == true
    }

    /// Removes `subscriber`; false when it was not here.
    func remove(_ subscriber: any StreamSubscriber) -> Bool {
        loop.assertInLoop()
        // One lookup of the channel (by index), not one per step.
        guard let index = subscribers.index(forKey: subscriber.channel),
            subscribers.values[index].remove(ObjectIdentifier(subscriber))
        else { return false }
        if subscribers.values[index].isEmpty { subscribers.remove(at: index) }
        removals += 1
        return true
    }

    // MARK: The delivery queue

    /// Queues `delivery` (any thread). True when no drain job is queued or running: the caller must start one.
    func enqueue(_ delivery: FanoutDelivery) -> Bool {
        queue.withLock { queue in
            queue.deliveries.append(delivery)
            if queue.draining { return false }
            queue.draining = true
            return true
        }
    }

    /// Takes every queued delivery (drain job only). When none is left the drain ends, under the same lock, so an
    /// ``enqueue(_:)`` racing with it starts the next one.
    func takeQueued() -> [FanoutDelivery] {
        loop.assertInLoop()
        return queue.withLock { queue in
            if queue.deliveries.isEmpty { queue.draining = false }
            var taken: [FanoutDelivery] = []
            swap(&taken, &queue.deliveries)
            return taken
        }
    }

    /// Takes the queued deliveries when there are some and every one is a change, for the running round to absorb
    /// (``DeliveryRound/absorb(_:of:)``); nil otherwise, the queue left as it is (drain job only).
    func takeQueuedChanges() -> [FanoutDelivery]? {
        loop.assertInLoop()
        return queue.withLock { queue in
            guard !queue.deliveries.isEmpty, queue.deliveries.allSatisfy({ $0.version != nil }) else { return nil }
            var taken: [FanoutDelivery] = []
            swap(&taken, &queue.deliveries)
            return taken
        }
    }

    /// True while deliveries are queued or being delivered (any thread).
    var isDelivering: Bool { queue.withLock { $0.draining } }

    /// Runs `body` once the deliveries queued so far reached this loop's subscribers at least up to `version`, after
    /// the work queued before it; at once when nothing waits (loop thread).
    func afterDelivery(of version: UInt64, _ body: @escaping () -> Void) {
        loop.assertInLoop()
        if afterDelivery.isEmpty, version <= deliveredVersion || !isDelivering { return body() }
        afterDelivery.append((version, body))
    }

    /// Runs the queued work that waited for versions up to `version` (loop thread).
    func runAfterDelivery(upTo version: UInt64) {
        loop.assertInLoop()
        var done = 0
        while done < afterDelivery.count, afterDelivery[done].version <= version {
            let body = afterDelivery[done].body
            done += 1
            body()
        }
        if done > 0 { afterDelivery.removeFirst(done) }
    }
}

/// One change or broadcast on its way to a shard's subscribers.
enum FanoutDelivery: Sendable {
    /// A new version: one message per channel that sees a change (none at all still wakes version waiters).
    case change(version: UInt64, messages: [StreamChannel: StreamMessage])
    /// A message for every subscriber whatever its channel (an event, the store's deletion).
    case broadcast(StreamMessage)

    /// What a subscriber of `channel` gets.
    func message(for channel: StreamChannel) -> StreamMessage? {
        switch self {
        case .change(_, let messages): messages[channel]
        case .broadcast(let message): message
        }
    }

    var version: UInt64? {
        if case .change(let version, _) = self { return version }
        return nil
    }

    /// Frames the messages before several loops read them.
    func prepareForSharing() {
        switch self {
        case .change(_, let messages): for message in messages.values { message.prepareForSharing() }
        case .broadcast(let message): message.prepareForSharing()
        }
    }
}
