import Synchronization
import Foundation
import Statehouse
import StatehouseCore
import JSONCoding
import Redis
import Locking

/// Taking and giving up a store's lease, and the owner's journal: each batch one call of the fenced commit function.
extension ClusteredStore {
    /// Asks Redis for the lease (``ClusterFunctions/acquire``) and, in the same round trip, for the stream past this
    /// node's view and the store's idempotency keys. Taken: the view catches up, then a ``TypedStore`` starts from it
    /// (its `bind()` effects run) and the waiting actions run here. Held by another node: they are forwarded to it.
    func acquire() {
        let from = machine.withLock { $0.view.version }
        let leaseMs = Array(String(node.configuration.leaseMs).utf8)
        let keys = self.keys
        let nodeName = Array(node.name.utf8)
        node.control.submit({
            [
                [Array("FCALL".utf8), ClusterFunctions.acquire, Array("3".utf8), keys.lease, keys.fence, keys.meta, nodeName, leaseMs],
                [Array("XRANGE".utf8), keys.log, Array("\(from < .max ? from + 1 : from)-0".utf8), Array("+".utf8)],
                [Array("HGETALL".utf8), keys.keys],
            ]
        }) { [self] result in
            switch result {
            case .failure(let error):
                settle(.following, failing: .clusterUnreachable(error))
            case .success(let replies):
                let gap = machine.withLock { apply(Self.rows(replies[1]), to: &$0) }
                let token: Int64, version: UInt64
                switch Self.acquireAnswer(replies[0]) {
                case nil:
                    return settle(.following, failing: .clusterUnreachable(RedisError(.protocol, "\(replies[0])")))
                case .held(let holder, let pttl)?:
                    let gone = machine.withLock { machine -> Bool in
                        machine.owner = holder
                        return holder.map { machine.isGone($0) } ?? false
                    }
                    // The holder is gone: ask again the moment its lease runs out (PTTL + 2 ms) rather than ask it again.
                    let leaseMs = Int64(node.configuration.leaseMs)
                    let wait = pttl >= leaseMs ? leaseMs : min(max(pttl + 2, 5), leaseMs)
                    settle(.following, delayMs: gone ? Int(wait) : 0)
                    return
                case .granted(let granted, let at)?:
                    (token, version) = (granted, at)
                }
                let lease = ClusterLease(value: "\(node.name):\(token)", token: token)
                if node.isDraining {  // taken while the node began to drain: give it back at once
                    release(lease)
                    return settle(.following, failing: .storeUnavailable)
                }
                let (viewVersion, firstLoss) = machine.withLock { machine in
                    let behind = version < machine.view.version && !machine.warnedLoss
                    if behind { machine.warnedLoss = true }
                    return (machine.view.version, behind)
                }
                if firstLoss {
                    logger.error(
                        "cluster node \(node.name): Redis holds store \(name) at version \(version), behind the \(viewVersion) "
                            + "this node saw committed: Redis lost data (FLUSHALL, a restart without AOF, or appendfsync "
                            + "everysec). Actions are refused; stop every node, then start them again (docs/cluster.md)")
                }
                if gap || viewVersion != version {
                    // The stream was trimmed past this node's view: read the snapshot, then take over next time.
                    release(lease)
                    resync()
                    return settle(.following, failing: .storeUnavailable)
                }
                promote(lease, keys: Self.storedKeys(replies[2]))
            }
        }
    }

    /// Ends `acquiring` in `role`; the waiting actions run again (after `delayMs`), or fail with `failing`.
    private func settle(_ role: Role, failing: APIError? = nil, delayMs: Int = 0) {
        let waiting = machine.withLock { machine in
            machine.role = role
            defer { machine.waiting = [] }
            return machine.waiting
        }
        for entry in waiting {
            if let failing {
                entry.fail(failing)
            } else if delayMs > 0 {
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delayMs)) { entry.again() }
            } else {
                entry.again()
            }
        }
    }

    /// Starts owning at the view with `lease`: a store from the view, its observers in place before any action.
    private func promote(_ lease: ClusterLease, keys stored: [StoredKey]) {
        let (view, hosted) = machine.withLock { ($0.view, $0.hosted) }
        let typed = TypedStore<R>(
            name: name, fanout: fanout, state: initialState, recovered: view, journal: journal(lease), executor: executor,
            decoded: decoded, logging: logging, logger: logger)
        let nowMs = StorageClock.nowMs
        let live = stored.filter { $0.expiresMs > nowMs }
        hosted?.idempotency.restoreMissing(live, nowMs: nowMs)
        node.holding(name, value: lease.value)
        logger.info("cluster node \(node.name): owns store \(name) from version \(view.version) (token \(lease.token))")
        let keys = self.keys
        let committer = node.committer
        Task { [self] in
            // The store's events reach the other nodes' subscribers too (before start: bind's first events count).
            _ = await typed.store.observeEvents { event in
                guard let fsa = FluxStandardActionEncoding.encode(event) else { return }  // TypedStore logs it
                let message = ClusterEvent(lease: lease.value, fsa: fsa).encoded
                committer.submit([Array("PUBLISH".utf8), keys.changes, message]) { _ in }
            }
            await typed.start()
            let waiting = machine.withLock { machine in
                machine.role = .owning(typed, lease)
                machine.owner = nil
                machine.goneOwner = nil
                machine.restoredKeys = Dictionary(live.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
                defer { machine.waiting = [] }
                return machine.waiting
            }
            for entry in waiting { entry.again() }
        }
    }

    /// Stops owning: the store stops (effects cancelled, FIFO after what it was sent), its final (committed) state
    /// becomes the view, and the stream is read for what a new owner committed since.
    func stepDown(releasing: Bool, why: String, done: (@Sendable () -> Void)?) {
        let owned = machine.withLock { machine -> (TypedStore<R>, ClusterLease)? in
            guard case .owning(let typed, let lease) = machine.role else { return nil }
            machine.role = .steppingDown
            return (typed, lease)
        }
        guard let (typed, lease) = owned else {
            done?()
            return
        }
        node.released(name)
        logger.info("cluster node \(node.name): stops owning store \(name): \(why)")
        typed.store.enqueueStop { [self] snapshot in
            let waiting = machine.withLock { machine in
                machine.view = snapshot
                machine.role = .following
                machine.owner = nil
                machine.restoredKeys = [:]
                defer { machine.waiting = [] }
                return machine.waiting
            }
            if releasing {
                release(lease, done: done)
            } else {
                done?()
            }
            for entry in waiting { entry.again() }
            resync()
        }
    }

    /// Deletes the lease when it is still `lease` (a drain: another node takes the store at once).
    private func release(_ lease: ClusterLease, done: (@Sendable () -> Void)? = nil) {
        node.control.submit(
            [Array("FCALL".utf8), ClusterFunctions.release, Array("1".utf8), keys.lease, Array(lease.value.utf8)]
        ) { _ in done?() }
    }

    /// The journal of an owner: each batch one `FCALL statehouse_commit`, refused by Redis unless the lease is still
    /// `lease` and the store still at the batch's first version − 1. A refusal or a failure undoes the batch (its
    /// senders get 503 and retry with their keys) and this node steps down.
    private func journal(_ lease: ClusterLease) -> StoreJournal<R.Action, R.State> {
        StoreJournal(gatesOutput: true) { [weak self] record, done in
            guard let self else { return done(ClusterCommitError(message: "the store is gone", maybeApplied: false)) }
            node.committer.submit({ [self] in [commitCommand(record, lease)] }) { [weak self] result in
                switch result {
                case .success(let replies) where replies[0].integer != nil:
                    done(nil)
                case .success(let replies):
                    // Refused by the function: nothing was written.
                    let message = replies[0].string ?? "\(replies[0])"
                    done(ClusterCommitError(message: message, maybeApplied: false))
                    if message.hasPrefix("DUPLICATE ") {
                        self?.reloadKeys()  // the retry is then answered from Redis, not applied again
                    } else {
                        self?.stepDown(releasing: false, why: "a commit was refused (\(message))", done: nil)
                    }
                case .failure(let error):
                    // The answer was lost: the commit may have been applied (the stream tells, when this node or
                    // another takes the store next).
                    done(ClusterCommitError(message: "\(error)", maybeApplied: true))
                    self?.stepDown(releasing: false, why: "a commit failed (\(error))", done: nil)
                }
            }
        }
    }

    /// Reads the store's idempotency keys again (a commit was refused as `DUPLICATE`: a key this node did not know was
    /// applied, e.g. by an earlier owner after this node read the keys): a retry of it is answered with its outcome.
    private func reloadKeys() {
        node.control.submit([Array("HGETALL".utf8), keys.keys]) { [self] result in
            guard case .success(let reply) = result else { return }
            let nowMs = StorageClock.nowMs
            let live = Self.storedKeys(reply).filter { $0.expiresMs > nowMs }
            let hosted = machine.withLock { machine in
                for key in live { machine.restoredKeys[key.key] = key }
                return machine.hosted
            }
            hosted?.idempotency.restoreMissing(live, nowMs: nowMs)
        }
    }

    /// The argv of one batch's commit (built on the committer's thread).
    private func commitCommand(_ record: JournalRecord<R.Action, R.State>, _ lease: ClusterLease) -> [[UInt8]] {
        let batch = TypedStore<R>.encoded(record)
        let configuration = node.configuration
        var keyOf: [UInt64: String] = [:]
        for key in batch.keys { keyOf[key.version] = key.key }
        var argv: [[UInt8]] = [
            Array("FCALL".utf8), ClusterFunctions.commit, Array("6".utf8), keys.lease, keys.meta, keys.log, keys.snapshot,
            keys.keys, keys.keyExpiries, Array(lease.value.utf8), Array(String(lease.token).utf8),
            Array(String(batch.newestVersion - UInt64(batch.rows.count)).utf8), Array(String(StorageClock.nowMs).utf8),
            Array(String(configuration.retainActions).utf8), Array(String(batch.rows.count).utf8),
        ]
        for row in batch.rows {
            argv += [Array(row.origin.name.utf8), row.action, Array((row.origin == .reset ? nil : keyOf[row.version])?.utf8 ?? "".utf8)]
        }
        let since = sinceSnapshot.add(batch.rows.count, ordering: .relaxed).newValue
        if batch.forceSnapshot || since >= configuration.snapshotEveryActions {
            sinceSnapshot.store(0, ordering: .relaxed)
            argv.append(batch.snapshotState())
        } else {
            argv.append([])
        }
        argv.append(Array(String(batch.keys.count).utf8))
        for key in batch.keys {
            argv += [
                Array(key.key.utf8), Array("\(key.fingerprint):\(key.version):\(key.expiresMs):".utf8) + key.state,
                Array(String(key.expiresMs).utf8),
            ]
        }
        if batch.rows.isEmpty {
            argv += [[], []]
        } else {
            let rows = batch.rows.map { ClusterRow(version: $0.version, origin: $0.origin, action: $0.action) }
            argv += [keys.changes, ClusterChanges(lease: lease.value, token: lease.token, rows: rows).encoded]
        }
        argv.append(Array(String(StoreWriter.keysPerStore).utf8))
        return argv
    }

    /// What the acquire function answered (``ClusterFunctions/acquire``).
    enum AcquireAnswer: Sendable, Equatable {
        /// The lease is this node's, with fencing `token`; the store is at `version`.
        case granted(token: Int64, version: UInt64)
        /// Another node holds it (`NODE:TOKEN`, nil when the reply does not say) for `pttlMs` more milliseconds.
        case held(holder: String?, pttlMs: Int64)
    }

    /// Reads the reply of ``ClusterFunctions/acquire``: `{1, token, version}` or `{0, holder, pttl}`; nil when it is
    /// neither (a granted lease without an integer token, or a version that is not an integer from 0 to Int64.max).
    static func acquireAnswer(_ reply: RedisReply) -> AcquireAnswer? {
        guard let answer = reply.array, answer.count == 3, let granted = answer[0].integer else { return nil }
        guard granted == 1 else { return .held(holder: answer[1].string, pttlMs: answer[2].integer ?? 0) }
        guard let token = answer[1].integer, let version = answer[2].integer, version >= 0 else { return nil }
        return .granted(token: token, version: UInt64(version))
    }

    /// The keys of an `HGETALL` reply of the keys hash (values `FINGERPRINT:VERSION:EXPIRES_MS:STATE`).
    static func storedKeys(_ reply: RedisReply) -> [StoredKey] {
        let parts = reply.array ?? []
        var keys: [StoredKey] = []
        var index = 0
        while index + 1 < parts.count {
            defer { index += 2 }
            guard let key = parts[index].string, let value = parts[index + 1].bytes else { continue }
            let fields = value.split(separator: UInt8(ascii: ":"), maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4, let fingerprint = UInt64(String(decoding: fields[0], as: UTF8.self)),
                let version = UInt64(String(decoding: fields[1], as: UTF8.self)),
                let expires = Int64(String(decoding: fields[2], as: UTF8.self))
            else { continue }
            keys.append(StoredKey(key: key, fingerprint: fingerprint, version: version, state: Array(fields[3]), expiresMs: expires))
        }
        return keys
    }
}

/// Redis refused or could not run a commit: the batch is undone here and its senders get 503 `storage_failed`.
struct ClusterCommitError: Error, CustomStringConvertible {
    let message: String
    /// Whether Redis may have applied it (its answer was lost): the senders are told to retry with their keys, which
    /// are then answered, not applied again. False when the function refused it (nothing written).
    let maybeApplied: Bool
    var description: String { "the cluster commit failed: \(message)" }
}
