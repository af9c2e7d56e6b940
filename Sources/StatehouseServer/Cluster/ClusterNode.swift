import Foundation
import Synchronization
import Redis
import Locking
import UVLoop

/// What a node needs from each store it serves, whatever its reducer (``ClusteredStore``).
protocol ClusterMember: AnyObject, Sendable {
    var name: String { get }
    var keys: StoreKeys { get }
    /// The owner committed changes (``ClusterChanges``, as published: decoded only by a node that follows the store;
    /// the subscriber's thread).
    func changesPublished(_ payload: [UInt8])
    /// Reads what the store's stream holds past this node's view (after a gap, or after the subscriber reconnected).
    func resync()
    /// Another node forwards an action to this node, which it believes owns the store (the subscriber's thread).
    func forwarded(_ forward: ClusterMessage.Forward)
    /// Stops owning the store (its lease was refused, a commit was fenced, or the node drains); `done` once it
    /// follows again (and, with `releasing`, once the lease is deleted).
    func stepDown(releasing: Bool, why: String, done: (@Sendable () -> Void)?)
    /// Whether this node owns the store and since when (metrics, inspector).
    var ownership: ClusterOwnership { get }
    /// How long an idempotency key's outcome is kept, seconds.
    var keyTtlSeconds: Int { get }
    /// The name of the node serving it.
    var nodeName: String { get }
}

/// Who owns a store, as one node sees it.
struct ClusterOwnership: Sendable {
    /// This node holds the lease.
    var owned: Bool
    /// How long this node has held it (ms), when it does.
    var heldMs: Int64?
    /// The lease value (`NODE:TOKEN`) of the owner: this node's own when it owns the store, else the last one seen.
    var owner: String?
    /// The newest version this node knows committed.
    var version: UInt64
}

/// This server as one node of a cluster (docs/cluster.md): its Redis connections, its leases and its mailbox.
///
/// Threads: three ``RedisWorker``s (`control`: leases, reads; `committer`: the stores' commits, pipelined;
/// `messenger`: forwarded actions and their answers), one ``Redis/RedisSubscriber`` (this node's inbox channel and
/// every store's `changes` channel) and the lease thread, which renews every lease this node holds each `leaseMs / 4`
/// and times out forwarded actions.
///
/// ## Thread safety
/// Sendable: locks around the member table, the forwards and the leases; workers and the subscriber are thread-safe.
final class ClusterNode: Sendable {
    let configuration: ClusterConfiguration
    let endpoint: RedisEndpoint
    let logger: Logger
    /// The loop idempotency waiters of forwarded actions are answered on.
    let loop: EventLoop
    let control: RedisWorker
    let committer: RedisWorker
    let messenger: RedisWorker
    private let subscriber = Locked<RedisSubscriber?>(nil)
    private let members = Locked<[String: any ClusterMember]>([:])
    private let forwards = Locked(Forwards())
    private let held = Locked<[String: HeldLease]>([:])
    /// Where the node is in its life (``Phase``), read without a lock on every action (`isDraining`).
    private let phase = Atomic<UInt8>(Phase.created.rawValue)

    /// The node's lifecycle:
    ///
    /// ```
    /// created ──start()──▶ running ──drain()──▶ draining ──stop()──▶ stopped
    ///    └──────────────────────┴──────────────stop()──────────────────▲
    /// ```
    ///
    /// `draining`: no lease is taken any more (actions are forwarded, or refused with 503 when no owner is known);
    /// `stopped`: the lease thread, the subscriber and the workers are gone (a node stopped before `start()` had no
    /// lease thread to wait for).
    enum Phase: UInt8 {
        case created, running, draining, stopped
    }

    /// Whether the node drains or stopped: it takes no lease any more.
    var isDraining: Bool { phase.load(ordering: .acquiring) >= Phase.draining.rawValue }
    private let leaseThreadDone = DispatchSemaphore(value: 0)
    private let wake = DispatchSemaphore(value: 0)
    /// Whether the subscriber is connected (so the down line is logged once per outage).
    private let subscribed = Atomic<Bool>(false)
    /// Signalled when the subscriber is subscribed (each time it gets there): ``start()`` waits for the first.
    private let subscribedSignal = DispatchSemaphore(value: 0)

    var name: String { configuration.node }
    /// This node's inbox channel (``StoreKeys/inbox(node:)``), compared with every message's channel.
    let inbox: [UInt8]

    /// A lease this node holds.
    struct HeldLease: Sendable {
        let value: String
        let takenNs: UInt64
        var renewedNs: UInt64
    }

    /// How a forwarded action ended for the node that sent it.
    enum ForwardOutcome: Sendable {
        case answered(ClusterMessage.Answer)
        /// No node reads the owner's inbox: it is gone (its lease expires within `leaseMs`).
        case ownerGone
        case failed(RedisError)
        case timedOut

        var isOwnerGone: Bool {
            if case .ownerGone = self { return true }
            return false
        }
    }

    private struct Forwards {
        var next: UInt64 = 1
        var pending: [UInt64: (deadlineNs: UInt64, done: @Sendable (ForwardOutcome) -> Void)] = [:]
    }

    /// Connects to Redis (and loads the function library). `path` names the configuration file in errors.
    /// - Throws: ``ConfigurationError`` when the URL is not one or names a database other than 0, Redis cannot be
    ///   reached, or a node of this name runs already.
    init(_ configuration: ClusterConfiguration, path: String, loop: EventLoop, logger: Logger) throws(ConfigurationError) {
        self.configuration = configuration
        inbox = StoreKeys.inbox(node: configuration.node)
        self.loop = loop
        self.logger = logger
        switch ClusterConfiguration.endpoint(configuration.redis) {
        case .success(let endpoint): self.endpoint = endpoint
        case .failure(let problem): throw ConfigurationError(path: path, location: "storage.redis", problem: "\(problem)")
        }
        control = RedisWorker(endpoint, name: "redis-control", prelude: [ClusterFunctions.load])
        committer = RedisWorker(endpoint, name: "redis-commit", prelude: [ClusterFunctions.load])
        messenger = RedisWorker(endpoint, name: "redis-messenger")
        control.start()
        committer.start()
        messenger.start()
        // PING, and whether another node of this name reads its inbox already (two nodes of one name would both
        // take forwarded actions: a configuration mistake, refused here).
        switch control.callAndWait([
            [Array("PING".utf8)], [Array("PUBSUB".utf8), Array("NUMSUB".utf8), inbox],
        ]) {
        case .failure(let error):
            stopWorkers()
            throw ConfigurationError(
                path: path, location: "storage.redis",
                problem: "cannot reach Redis at \(configuration.redis) (\(error)); start redis-server or fix the URL")
        case .success(let replies):
            if let readers = replies[1].array?.last?.integer, readers > 0 {
                stopWorkers()
                throw ConfigurationError(
                    path: path, location: "storage.node",
                    problem: "a node named \(configuration.node) is running already on \(configuration.redis); give each "
                        + "node its own name (storage.node or --node)")
            }
        }
    }

    /// Serves `member`'s store from now on (before ``start()``).
    func add(_ member: any ClusterMember) {
        members.withLock { $0[member.name] = member }
    }

    /// Subscribes (inbox and every store's changes), waits up to `leaseMs` for the subscription, and starts the lease
    /// thread.
    func start() {
        guard phase.compareExchange(
            expected: Phase.created.rawValue, desired: Phase.running.rawValue, ordering: .acquiringAndReleasing
        ).exchanged else { return }
        let channels = [inbox] + members.withLock { $0.values.map(\.keys.changes) }
        let subscriber = RedisSubscriber(endpoint, name: "redis-sub") { [weak self] event in self?.received(event) }
        self.subscriber.withLock { $0 = subscriber }
        subscriber.start(channels: channels)
        // Serve only once subscribed: a node's inbox then has its reader before the server answers, so a second node
        // of this name started after this one returns sees it (PUBSUB NUMSUB, above) and is refused.
        if subscribedSignal.wait(timeout: .now() + .milliseconds(configuration.leaseMs)) == .timedOut {
            logger.warning(
                "cluster node \(name): not subscribed to Redis within \(configuration.leaseMs) ms; serving anyway")
        }
        let thread = Thread { [self] in
            EventLoop.nameCurrentThread("redis-lease")
            runLeases()
        }
        thread.name = "redis-lease"
        thread.start()
        logger.info("cluster node \(name): \(members.withLock { $0.count }) store(s), Redis \(configuration.redis), lease \(configuration.leaseMs) ms")
    }

    /// Releases every lease this node holds (each store stops owning first), waiting at most `2 × leaseMs`.
    func drain() {
        guard phase.compareExchange(
            expected: Phase.running.rawValue, desired: Phase.draining.rawValue, ordering: .acquiringAndReleasing
        ).exchanged else { return }
        let group = DispatchGroup()
        for member in members.withLock({ Array($0.values) }) {
            group.enter()
            member.stepDown(releasing: true, why: "the node drains") { group.leave() }
        }
        if group.wait(timeout: .now() + .milliseconds(2 * configuration.leaseMs)) == .timedOut {
            logger.warning("cluster node \(name): not every lease was released in time; they expire within \(configuration.leaseMs) ms")
        }
    }

    /// Stops the lease thread, the subscriber and the workers.
    func stop() {
        let before = phase.exchange(Phase.stopped.rawValue, ordering: .acquiringAndReleasing)
        guard before != Phase.stopped.rawValue else { return }
        if before != Phase.created.rawValue {  // running or draining: the lease thread runs
            wake.signal()
            leaseThreadDone.wait()
        }
        subscriber.withLock { $0 }?.stop()
        let pending = forwards.withLock { forwards in
            defer { forwards.pending = [:] }
            return Array(forwards.pending.values)
        }
        for entry in pending { entry.done(.failed(RedisError(.closed, "the server is stopping"))) }
        stopWorkers()
    }

    private func stopWorkers() {
        control.stop()
        committer.stop()
        messenger.stop()
    }

    // MARK: Leases

    /// This node took `store`'s lease.
    func holding(_ store: String, value: String) {
        let now = MonotonicClock.nowNs()
        held.withLock { $0[store] = HeldLease(value: value, takenNs: now, renewedNs: now) }
    }

    /// This node no longer holds `store`'s lease.
    func released(_ store: String) {
        _ = held.withLock { $0.removeValue(forKey: store) }
    }

    /// When this node took `store`'s lease (monotonic ns), if it holds it.
    func leaseTaken(_ store: String) -> UInt64? { held.withLock { $0[store]?.takenNs } }

    /// Every `leaseMs / 4`: renews the leases held (one pipeline), and times out forwards.
    private func runLeases() {
        let period = max(25, configuration.leaseMs / 4)
        while phase.load(ordering: .acquiring) != Phase.stopped.rawValue {
            _ = wake.wait(timeout: .now() + .milliseconds(period))
            if phase.load(ordering: .acquiring) == Phase.stopped.rawValue { break }
            renewLeases()
            timeOutForwards()
        }
        leaseThreadDone.signal()
    }

    private func renewLeases() {
        let leases = held.withLock { $0 }
        guard !leases.isEmpty else { return }
        let sent = MonotonicClock.nowNs()
        let names = Array(leases.keys)
        let leaseMs = Array(String(configuration.leaseMs).utf8)
        control.submit({
            names.map { name in
                [Array("FCALL".utf8), ClusterFunctions.renew, Array("1".utf8), StoreKeys(name).lease,
                 Array(leases[name]!.value.utf8), leaseMs]
            }
        }) { [self] result in
            switch result {
            case .success(let replies):
                for (name, reply) in zip(names, replies) {
                    if reply.integer == 1 {
                        held.withLock { $0[name]?.renewedNs = sent }
                    } else if case .error(let message) = reply {
                        lose(name, why: "its lease could not be renewed (\(message))")
                    } else {
                        lose(name, why: "its lease expired or another node took it")
                    }
                }
            case .failure(let error):
                // Redis cannot be reached: a lease not renewed for leaseMs may be another node's by now.
                let limit = UInt64(configuration.leaseMs) * 1_000_000
                let now = MonotonicClock.nowNs()
                for (name, lease) in leases where now - lease.renewedNs >= limit {
                    lose(name, why: "its lease could not be renewed for \(configuration.leaseMs) ms (\(error))")
                }
            }
        }
    }

    private func lose(_ name: String, why: String) {
        released(name)
        members.withLock { $0[name] }?.stepDown(releasing: false, why: why, done: nil)
    }

    // MARK: Forwarding

    /// Sends `forward` to `owner`'s inbox; `done` gets the answer, or why there is none (`timedOut` after
    /// `forwardTimeoutMs`, plus the settle timeout of a `wait=settled` action: the owner answers that one later).
    func forward(_ forward: ClusterMessage.Forward, to owner: String, done: @escaping @Sendable (ForwardOutcome) -> Void) {
        var forward = forward
        let waitMs = configuration.forwardTimeoutMs + (forward.settleTimeoutMs ?? 0)
        let deadline = MonotonicClock.nowNs() + UInt64(waitMs) * 1_000_000
        forward.ref = forwards.withLock { forwards in
            let ref = forwards.next
            forwards.next += 1
            forwards.pending[ref] = (deadline, done)
            return ref
        }
        let ref = forward.ref
        let message = ClusterMessage.forward(forward).encoded
        messenger.submit([Array("PUBLISH".utf8), StoreKeys.inbox(node: owner), message]) { [self] result in
            switch result {
            case .success(let reply) where reply.integer == 0: take(ref)?(.ownerGone)
            case .success(.error(let message)): take(ref)?(.failed(RedisError(.protocol, message)))
            case .success: break  // delivered: the answer comes to the inbox
            case .failure(let error): take(ref)?(.failed(error))
            }
        }
    }

    /// Answers forward `ref` of node `to`.
    func answer(_ ref: UInt64, to node: String, _ answer: ClusterMessage.Answer) {
        messenger.submit([Array("PUBLISH".utf8), StoreKeys.inbox(node: node), ClusterMessage.answer(ref: ref, answer).encoded]) {
            _ in
        }
    }

    private func take(_ ref: UInt64) -> (@Sendable (ForwardOutcome) -> Void)? {
        forwards.withLock { $0.pending.removeValue(forKey: ref)?.done }
    }

    private func timeOutForwards() {
        let now = MonotonicClock.nowNs()
        let late = forwards.withLock { forwards -> [@Sendable (ForwardOutcome) -> Void] in
            let refs = forwards.pending.filter { $0.value.deadlineNs <= now }.map(\.key)
            return refs.compactMap { forwards.pending.removeValue(forKey: $0)?.done }
        }
        for done in late { done(.timedOut) }
    }

    // MARK: Subscriber

    private func received(_ event: RedisSubscriber.Event) {
        switch event {
        case .message(let channel, let payload):
            if channel == inbox {
                switch ClusterMessage(payload) {
                case .forward(let forward)?:
                    if let member = members.withLock({ $0[forward.store] }) {
                        member.forwarded(forward)
                    } else {
                        answer(forward.ref, to: forward.from, .moved)
                    }
                case .answer(let ref, let answer)?:
                    take(ref)?(.answered(answer))
                case nil:
                    break
                }
            } else if let store = StoreKeys.store(changesChannel: channel), let member = members.withLock({ $0[store] }) {
                member.changesPublished(payload)
            }
        case .connected:
            if !subscribed.exchange(true, ordering: .acquiringAndReleasing) {
                logger.info("cluster node \(name): subscribed to Redis \(configuration.redis)")
                subscribedSignal.signal()
            }
            for member in members.withLock({ Array($0.values) }) { member.resync() }
        case .disconnected(let error):
            if subscribed.exchange(false, ordering: .acquiringAndReleasing) {
                logger.warning("cluster node \(name): lost Redis \(configuration.redis) (\(error)); reconnecting")
            }
        }
    }

    /// Every store's ownership as this node sees it, by name (metrics, inspector).
    var ownerships: [(name: String, ownership: ClusterOwnership)] {
        members.withLock { Array($0.values) }.map { ($0.name, $0.ownership) }.sorted { $0.name < $1.name }
    }
}

extension StoreKeys {
    /// The store whose `changes` channel `channel` is (`{s:NAME}:changes`), or nil.
    static func store(changesChannel channel: [UInt8]) -> String? {
        let prefix = Array("{s:".utf8)
        let suffix = Array("}:changes".utf8)
        guard channel.count > prefix.count + suffix.count, channel.starts(with: prefix), channel.suffix(suffix.count).elementsEqual(suffix)
        else { return nil }
        return String(decoding: channel[prefix.count..<(channel.count - suffix.count)], as: UTF8.self)
    }
}
