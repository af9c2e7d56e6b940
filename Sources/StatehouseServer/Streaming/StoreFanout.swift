import Foundation
import JSON
import Synchronization
import UVLoop
import Locking

/// A subscriber of a store's stream on its event loop's thread (a WebSocket or SSE session).
protocol StreamSubscriber: AnyObject {
    /// What it watches.
    var channel: StreamChannel { get }
    /// The loop its connection lives on: messages are delivered there.
    var loop: EventLoop { get }
    /// One message of its channel, or an event. Called on ``loop``'s thread, in stream order.
    func deliver(_ message: StreamMessage)
}

/// One store's stream: its recent history and its subscribers, grouped by event loop and channel.
///
/// On each change (``stateChanged(version:json:)``, on the store's actor, in version order) the new state is
/// recorded, and one message per active channel is built — projected, deduplicated and diffed there, once — then
/// queued for each loop that has subscribers (its ``FanoutShard``), where every subscriber of that channel gets the
/// same bytes, in slices that keep each loop turn within its budget (`StoreFanout+Delivery.swift`).
///
/// Joining is atomic with the history under one lock (``subscribe(_:from:)``): the joiner gets its first message
/// for the newest version recorded, and every later change is built for its channel and sent to its loop. So a
/// subscriber never misses the newest state and never goes back.
///
/// ## Thread safety
/// The history, channel counts, projections and the list of shards are behind one lock (``Shared`` in a `Locked`:
/// the store actor and every loop use them); each shard's subscribers and version waiters are confined to that
/// shard's loop.
final class StoreFanout: Sendable {
    let storeName: String
    /// The history's epoch (fixed for its life).
    let epoch: String
    let shared: Locked<Shared>

    /// What the lock guards.
    struct Shared {
        let storeName: String
        var history: StoreHistory
        var channels: [StreamChannel: Int] = [:]
        var projections: [StreamChannel: (version: UInt64, value: JSONValue)] = [:]
        /// Snapshots and catch-ups built for the newest version, shared by the subscribers needing them.
        var messages = StreamMessageCache()
        /// RFC 6902 ops from the version before the newest to the newest, when the store found them without a diff
        /// (a state with chunked arrays: ``TypedStore``); nil: diff the parsed states when a patch is needed.
        var newestPatch: [UInt8]?
        /// One per loop that ever had a subscriber or waiter here; `active` counts them (changed under this lock).
        var shards: [FanoutShard] = []
        /// Version waiters on all loops: a change that no channel sees still wakes them.
        var waiterCount = 0

        /// The shard of `loop`, made on first use.
        mutating func shardOf(_ loop: EventLoop) -> FanoutShard {
            if let shard = shards.first(where: { $0.loop === loop }) { return shard }
            let shard = FanoutShard(loop: loop)
            shards.append(shard)
            return shard
        }
    }

    /// A stream starting at `version` with the state `initialJSON`, in `epoch` (nil: a new random one).
    init(storeName: String, historySize: Int, epoch: String? = nil, version: UInt64 = 0, initialJSON: [UInt8]) {
        self.storeName = storeName
        let history = StoreHistory(capacity: historySize, initial: version, json: initialJSON, epoch: epoch)
        self.epoch = history.epoch
        shared = Locked(Shared(storeName: storeName, history: history))
    }

    /// Hands `delivery` to each loop with subscribers or waiters here, to that loop's shard queue, and starts the
    /// shard's drain job unless one is queued or running (see `StoreFanout+Delivery.swift`). Framed here first when
    /// several loops will read the messages.
    private func forEachActiveShard(_ active: [FanoutShard], deliver delivery: FanoutDelivery) {
        if active.count > 1 { delivery.prepareForSharing() }
        for shard in active where shard.enqueue(delivery) {
            shard.loop.execute { self.drain(shard) }
        }
    }

    // MARK: Store side (the store's actor, in version order)

    /// Records a new state and sends one message per active channel. `patch`: the RFC 6902 ops from `version - 1`
    /// when the store has them (then no `format=patch` stream of the whole state parses or diffs a state);
    /// `sharedEnds`: bytes `json` is known to share with the previous version's at its start and end (the history's
    /// delta then scans only the bytes between).
    func stateChanged(
        version: UInt64, json: [UInt8], patch: [UInt8]? = nil, sharedEnds: (prefix: Int, suffix: Int) = (0, 0)
    ) {
        let (messages, active) = shared.withLock { shared -> ([StreamChannel: StreamMessage], [FanoutShard]) in
            shared.history.record(version: version, json: json, sharedEnds: sharedEnds)
            shared.messages.removeAll()
            shared.newestPatch = version > 0 ? patch : nil
            if let patch { shared.messages.keep(patch, from: version - 1) }
            var messages: [StreamChannel: StreamMessage] = [:]
            for channel in shared.channels.keys {
                if let message = shared.changeMessage(channel, version: version) { messages[channel] = message }
            }
            return (messages, !messages.isEmpty || shared.waiterCount > 0 ? shared.shards.filter { $0.active > 0 } : [])
        }
        forEachActiveShard(active, deliver: .change(version: version, messages: messages))
    }

    /// Sends an event (its FSA JSON) to every subscriber, in stream order.
    func eventEmitted(_ fsa: [UInt8]) {
        let (version, active) = shared.withLock {
            ($0.history.newestVersion, $0.channels.isEmpty ? [] : $0.shards.filter { $0.active > 0 })
        }
        guard !active.isEmpty else { return }  // no subscriber anywhere (waiters alone do not take events)
        let message = StreamMessage(
            kind: .event, version: version, epoch: epoch, json: WireMessage.event(store: storeName, fsa))
        forEachActiveShard(active, deliver: .broadcast(message))
    }

    // MARK: Reads (any thread)

    /// The newest version, its state JSON and its entity tag.
    var newest: (version: UInt64, json: [UInt8], entityTag: String) {
        shared.withLock { ($0.history.newestVersion, $0.history.newestJSON, $0.history.entityTag($0.history.newestVersion)) }
    }

    /// How many versions the history holds.
    var historyCount: Int { shared.withLock { Int($0.history.newestVersion - $0.history.oldestVersion) + 1 } }

    /// The state JSON of `version` when the history still holds it.
    func json(at version: UInt64) -> [UInt8]? {
        shared.withLock {
            if version == $0.history.newestVersion { return $0.history.newestJSON }
            return $0.history.value(at: version)?.serialized()
        }
    }

    /// RFC 6902 ops from `version` of `epoch` to the newest state, or nil when the history no longer holds it.
    func patchToNewest(from version: UInt64, epoch: String) -> (ops: [UInt8], newest: UInt64)? {
        shared.withLock { shared in
            let newest = shared.history.newestVersion
            guard shared.history.covers(version, epoch: epoch) else { return nil }
            if let kept = shared.messages.patch(from: version) { return (kept, newest) }
            guard let from = shared.history.value(at: version) else { return nil }
            let ops = JSONPatch.serialize(JSONPatch.diff(from: from, to: shared.history.newest()))
            shared.messages.keep(ops, from: version)
            return (ops, newest)
        }
    }

    // MARK: Subscribers (the subscriber's loop thread)

    /// Adds `subscriber` and returns its first message: a snapshot of the newest state, or, when resuming from a
    /// held `from` position, a patch from there (nil when already up to date).
    func subscribe(_ subscriber: any StreamSubscriber, from position: StreamPosition?) -> (StreamMessage?, UInt64) {
        subscriber.loop.assertInLoop()
        let channel = subscriber.channel
        let loop = subscriber.loop
        let (first, shard) = shared.withLock { shared -> ((StreamMessage?, UInt64), FanoutShard) in
            let newest = shared.history.newestVersion
            if channel.path != nil, shared.projections[channel] == nil,
                let value = shared.history.projection(at: newest, path: channel.path)
            {
                shared.projections[channel] = (newest, value)
            }
            shared.channels[channel, default: 0] += 1
            let shard = shared.shardOf(loop)
            shard.active += 1
            return (shared.catchUpMessage(channel, from: position), shard)
        }
        shard.subscribers[channel, default: SubscriberList()].insert(subscriber)
        return first
    }

    /// A message bringing a subscriber at `position` to the newest state (a patch when possible), and that version.
    /// With `loop` (a subscriber that was behind, on that loop), a message is counted in the loop's shard
    /// (``FanoutShard/catchUps``); nil for a snapshot the client asked for.
    func catchUp(
        _ channel: StreamChannel, from position: StreamPosition?, countingOn loop: EventLoop?
    ) -> (StreamMessage?, UInt64) {
        let (result, shard) = shared.withLock { shared in
            (shared.catchUpMessage(channel, from: position), loop.flatMap { loop in shared.shards.first { $0.loop === loop } })
        }
        if result.0 != nil, let shard {
            shard.loop.assertInLoop()
            shard.catchUps += 1
        }
        return result
    }

    /// Removes a subscriber; idempotent.
    func unsubscribe(_ subscriber: any StreamSubscriber) {
        subscriber.loop.assertInLoop()
        let channel = subscriber.channel
        let loop = subscriber.loop
        shared.withLock { shared in
            let shard = shared.shardOf(loop)
            guard shard.remove(subscriber) else { return }
            shard.active -= 1
            shared.channels[channel, default: 1] -= 1
            if shared.channels[channel] == 0 {
                shared.channels[channel] = nil
                shared.projections[channel] = nil
            }
        }
    }

    /// The store was deleted: every subscriber gets a final `deleted` message (and ends its stream).
    func storeDeleted() {
        let (version, active) = shared.withLock { ($0.history.newestVersion, $0.shards.filter { $0.active > 0 }) }
        let message = StreamMessage(kind: .deleted, version: version, epoch: epoch, json: WireMessage.deleted(store: storeName))
        forEachActiveShard(active, deliver: .broadcast(message))
    }

    // MARK: Version waiters (the waiting session's loop thread)

    /// Calls `done(true)` on `loop` once the version is at least `version`, or `done(false)` after `timeoutMs`.
    /// - Returns: the waiter, for ``abandon(_:on:)``; nil when `done` has run already.
    @discardableResult
    func waitForVersion(_ version: UInt64, timeoutMs: Int, on loop: EventLoop, done: @escaping (Bool) -> Void) -> VersionWaiter? {
        loop.assertInLoop()
        if newest.version >= version {
            done(true)
            return nil
        }
        let timer = LoopTimer(loop: loop)
        let waiter = VersionWaiter(version: version, timer: timer, done: done)
        let shard = shared.withLock { shared -> FanoutShard in
            let shard = shared.shardOf(loop)
            shard.active += 1
            shared.waiterCount += 1
            return shard
        }
        shard.waiters.append(waiter)
        // A change recorded between the check above and joining the shard sent no job here: look again.
        if newest.version >= version {
            finish(waiter, in: shard, reached: true)
            return nil
        }
        timer.start(delayMs: UInt64(timeoutMs)) { [weak self, weak waiter] in
            guard let self, let waiter else { return }
            finish(waiter, in: shard, reached: false)
        }
        return waiter
    }

    /// Ends a wait whose request was answered otherwise (shutdown, client gone) now, not at its timeout: its timer is
    /// closed and `done(false)` runs. On `loop`, the waiter's; a finished waiter is ignored.
    func abandon(_ waiter: VersionWaiter, on loop: EventLoop) {
        loop.assertInLoop()
        let shard = shared.withLock { $0.shardOf(loop) }
        finish(waiter, in: shard, reached: false)
    }

    func wakeWaiters(in shard: FanoutShard, version: UInt64) {
        shard.loop.assertInLoop()
        for waiter in shard.waiters where waiter.version <= version { finish(waiter, in: shard, reached: true) }
    }

    private func finish(_ waiter: VersionWaiter, in shard: FanoutShard, reached: Bool) {
        shard.loop.assertInLoop()
        guard let index = shard.waiters.firstIndex(where: { $0 === waiter }) else { return }
        shard.waiters.remove(at: index)
        shared.withLock {
            shard.active -= 1
            $0.waiterCount -= 1
        }
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

extension StoreFanout {
    /// The newest version and this loop's shard (nil when no subscriber or waiter was ever here), read together under
    /// the lock (metrics, on `loop`).
    func newestAndShard(on loop: EventLoop) -> (newest: UInt64, shard: FanoutShard?) {
        loop.assertInLoop()
        return shared.withLock { shared in (shared.history.newestVersion, shared.shards.first { $0.loop === loop }) }
    }

    /// When `version` was recorded (monotonic ns, ``StoreHistory/madeAt(_:)``), read under the lock (metrics).
    func madeAt(_ version: UInt64) -> UInt64? { shared.withLock { $0.history.madeAt(version) } }
}
