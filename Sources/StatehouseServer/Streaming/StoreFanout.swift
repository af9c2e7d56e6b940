import Foundation
import JSONPatch
import UVLoop

/// A subscriber of a store's stream on the loop thread (a WebSocket or SSE session).
protocol StreamSubscriber: AnyObject {
    /// What it watches.
    var channel: StreamChannel { get }
    /// One message of its channel, or an event. Called on the loop thread, in stream order.
    func deliver(_ message: StreamMessage)
}

/// One store's stream: its recent history and its subscribers, grouped by channel.
///
/// On each change (``stateChanged(version:json:)``, on the store's actor, in version order) the new state is
/// recorded, and one message per active channel is built — projected, deduplicated and diffed there, once — then
/// handed to the loop, where every subscriber of that channel gets the same bytes.
///
/// Joining is atomic with the history under one lock (``subscribe(_:from:)``): the joiner gets its first message
/// for the newest version recorded, and every later change is built for its channel. So a subscriber never misses
/// the newest state and never goes back.
///
/// ## Thread safety
/// The history, channel counts and projections are guarded by a lock (store actor and loop both use them); the
/// subscriber list and version waiters are loop-confined.
final class StoreFanout: @unchecked Sendable {
    let storeName: String
    private let lock = NSLock()
    /// Guarded by `lock` (as are `channels` and `projections`).
    var history: StoreHistory
    private var channels: [StreamChannel: Int] = [:]
    var projections: [StreamChannel: (version: UInt64, value: JSONValue)] = [:]
    private var waiterCount = 0
    private var loop: EventLoop?
    // Loop-confined:
    private var subscribers: [ObjectIdentifier: any StreamSubscriber] = [:]
    private var waiters: [VersionWaiter] = []

    init(storeName: String, historySize: Int, initialJSON: [UInt8]) {
        self.storeName = storeName
        history = StoreHistory(capacity: historySize, initial: 0, json: initialJSON)
    }

    /// Binds the fanout to the loop its subscribers live on.
    func attach(to loop: EventLoop) { lock.withLock { self.loop = loop } }

    // MARK: Store side (the store's actor, in version order)

    /// Records a new state and sends one message per active channel.
    func stateChanged(version: UInt64, json: [UInt8]) {
        let (loop, messages, waking) = lock.withLock { () -> (EventLoop?, [StreamChannel: StreamMessage], Bool) in
            history.record(version: version, json: json)
            var messages: [StreamChannel: StreamMessage] = [:]
            for channel in channels.keys {
                if let message = changeMessage(channel, version: version, json: json) { messages[channel] = message }
            }
            return (self.loop, messages, waiterCount > 0)
        }
        guard let loop, !messages.isEmpty || waking else { return }
        loop.execute { [self] in
            for subscriber in subscribers.values {
                if let message = messages[subscriber.channel] { subscriber.deliver(message) }
            }
            if waking { wakeWaiters(version: version) }
        }
    }

    /// Sends an event (its FSA JSON) to every subscriber, in stream order.
    func eventEmitted(_ fsa: [UInt8]) {
        let (loop, epoch, version, active) = lock.withLock { (self.loop, history.epoch, history.newest.version, !channels.isEmpty) }
        guard let loop, active else { return }
        let message = StreamMessage(
            kind: .event, version: version, epoch: epoch, json: Envelope.event(store: storeName, fsa))
        loop.execute { [self] in
            for subscriber in subscribers.values { subscriber.deliver(message) }
        }
    }

    // MARK: Reads (any thread)

    /// The newest version, its state JSON and its entity tag.
    var newest: (version: UInt64, json: [UInt8], entityTag: String) {
        lock.withLock { (history.newest.version, history.newest.json, history.entityTag(history.newest.version)) }
    }

    var epoch: String { history.epoch }

    /// RFC 6902 ops from `version` of `epoch` to the newest state, or nil when the history no longer holds it.
    func patchToNewest(from version: UInt64, epoch: String) -> (ops: [UInt8], newest: UInt64)? {
        lock.withLock {
            let newest = history.newest.version
            guard history.covers(version, epoch: epoch), let from = history.value(at: version),
                let to = history.value(at: newest)
            else { return nil }
            return (JSONPatch.serialize(JSONPatch.diff(from: from, to: to)), newest)
        }
    }

    // MARK: Subscribers (loop thread)

    /// Adds `subscriber` and returns its first message: a snapshot of the newest state, or, when resuming from a
    /// held `from` position, a patch from there (nil when already up to date).
    func subscribe(_ subscriber: any StreamSubscriber, from position: StreamPosition?) -> (StreamMessage?, UInt64) {
        let channel = subscriber.channel
        let first = lock.withLock { () -> (StreamMessage?, UInt64) in
            let newest = history.newest.version
            if channel.path != nil, projections[channel] == nil, let value = history.projection(at: newest, path: channel.path) {
                projections[channel] = (newest, value)
            }
            channels[channel, default: 0] += 1
            return catchUpMessage(channel, from: position)
        }
        subscribers[ObjectIdentifier(subscriber)] = subscriber
        return first
    }

    /// A message bringing a subscriber at `position` to the newest state (a patch when possible), and that version.
    func catchUp(_ channel: StreamChannel, from position: StreamPosition?) -> (StreamMessage?, UInt64) {
        lock.withLock { catchUpMessage(channel, from: position) }
    }

    /// Removes a subscriber; idempotent.
    func unsubscribe(_ subscriber: any StreamSubscriber) {
        guard subscribers.removeValue(forKey: ObjectIdentifier(subscriber)) != nil else { return }
        let channel = subscriber.channel
        lock.withLock {
            channels[channel, default: 1] -= 1
            if channels[channel] == 0 {
                channels[channel] = nil
                projections[channel] = nil
            }
        }
    }

    /// The store was deleted: every subscriber gets a final `deleted` message (and ends its stream).
    func storeDeleted() {
        let (loop, epoch, version) = lock.withLock { (self.loop, history.epoch, history.newest.version) }
        let message = StreamMessage(kind: .deleted, version: version, epoch: epoch, json: Envelope.deleted(store: storeName))
        loop?.execute { [self] in
            for subscriber in subscribers.values { subscriber.deliver(message) }
        }
    }

    // MARK: Version waiters (loop thread)

    /// Calls `done(true)` once the version is at least `version`, or `done(false)` after `timeoutMs`.
    func waitForVersion(_ version: UInt64, timeoutMs: Int, done: @escaping (Bool) -> Void) {
        guard let loop = lock.withLock({ self.loop }) else { return done(false) }
        if newest.version >= version { return done(true) }
        let timer = LoopTimer(loop: loop)
        let waiter = VersionWaiter(version: version, timer: timer, done: done)
        waiters.append(waiter)
        lock.withLock { waiterCount += 1 }
        timer.start(delayMs: UInt64(timeoutMs)) { [weak self, weak waiter] in
            guard let self, let waiter else { return }
            finish(waiter, reached: false)
        }
    }

    private func wakeWaiters(version: UInt64) {
        for waiter in waiters where waiter.version <= version { finish(waiter, reached: true) }
    }

    private func finish(_ waiter: VersionWaiter, reached: Bool) {
        guard let index = waiters.firstIndex(where: { $0 === waiter }) else { return }
        waiters.remove(at: index)
        lock.withLock { waiterCount -= 1 }
        waiter.timer.close()
        waiter.done(reached)
    }
}

/// A read waiting for a version (`GET /stores/{name}?min_version=`).
final class VersionWaiter {
    let version: UInt64
    let timer: LoopTimer
    let done: (Bool) -> Void

    init(version: UInt64, timer: LoopTimer, done: @escaping (Bool) -> Void) {
        self.version = version
        self.timer = timer
        self.done = done
    }
}

/// Where a subscriber is in a store's stream: the epoch and the last version it holds.
struct StreamPosition: Equatable, Sendable {
    var epoch: String
    var version: UInt64
}
