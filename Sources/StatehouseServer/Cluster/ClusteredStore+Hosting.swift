import Synchronization
import Statehouse
import StatehouseCore
import JSONCoding
import JSON
import Redis
import Locking

extension ClusteredStore {
    /// Opens the store in Redis (its meta made once, so every node shares its epoch) and builds this node's view of it
    /// from its snapshot and stream, then hosts it. Blocking (startup).
    /// - Throws: ``RecoveryError`` when the stored data does not decode, or Redis holds the store for another reducer
    ///   or cannot be read.
    static func hosted(
        name: String, reducerName: String, state: R.State, historySize: Int, executor: (any StoreExecutor)?,
        node: ClusterNode, decoded: DecodedActions<R.Action>, logging: StoreLogging, logger: Logger
    ) throws(RecoveryError) -> HostedStore {
        let keys = StoreKeys(name)
        let opened = node.control.callAndWait([
            [Array("FCALL".utf8), ClusterFunctions.open, Array("1".utf8), keys.meta, Array(reducerName.utf8),
             Array(StoreHistory.newEpoch().utf8)],
            [Array("HMGET".utf8), keys.snapshot, Array("version".utf8), Array("state".utf8)],
            [Array("XRANGE".utf8), keys.log, Array("-".utf8), Array("+".utf8)],
        ])
        guard case .success(let replies) = opened, let meta = replies[0].array, meta.count == 3 else {
            throw RecoveryError(store: name, version: 0, problem: "cannot be read from Redis (\(opened))")
        }
        guard let epoch = meta[0].string, meta[1].string == reducerName else {
            throw RecoveryError(
                store: name, version: 0,
                problem: "Redis holds it for reducer \(meta[1].string ?? "?"), not \(reducerName); rename the store")
        }
        let base = Self.snapshot(replies[1]) ?? StoredSnapshot(version: 0, state: TypedStore<R>.encode(state))
        let rows = Self.rows(replies[2]).filter { $0.version > base.version }
        let (view, fanout) = try TypedStore<R>.recovered(
            name: name, base: base, rows: rows, historySize: historySize, epoch: epoch)
        let clustered = ClusteredStore(
            name: name, node: node, fanout: fanout, view: view, initialState: state, executor: executor, decoded: decoded,
            logging: logging, logger: logger)
        node.add(clustered)
        let operations = HostedStore.Operations(
            start: {},
            control: { command in
                switch command {
                case .stop(let done): clustered.stepDown(releasing: true, why: "the store stops") { done() }
                case .setLogging: break
                }
            },
            reset: { reply in clustered.reset(reply) },
            prepare: { json in
                TypedStore<R>.prepare(actionJSON: json, decoded: decoded) { leading, last in clustered.bind(leading, last) }
            },
            decodeClientMessage: { message in
                ClientMessageDecoding.decode(message, actionTypes: R.actionTypes, payloadless: decoded.payloadless) {
                    clustered.bind([], $0)
                }
            },
            stateAt: { version in fanout.json(at: version) },
            actionCounts: { clustered.actionCounts })
        let hosted = HostedStore(
            name: name, reducerName: reducerName, fanout: fanout, persistence: nil, keys: [], operations: operations,
            cluster: clustered)
        clustered.machine.withLock { $0.hosted = hosted }
        return hosted
    }

    /// The rows of an `XRANGE` reply (entries `VERSION-0` with fields `o`, `a`, …).
    static func rows(_ reply: RedisReply) -> [JournalRow] {
        (reply.array ?? []).compactMap { entry -> JournalRow? in
            guard let parts = entry.array, parts.count == 2, let id = parts[0].string,
                let version = UInt64(id.prefix { $0 != "-" }), let fields = parts[1].array
            else { return nil }
            var origin: JournalOrigin?
            var action: [UInt8]?
            var ms: Int64 = 0
            var index = 0
            while index + 1 < fields.count {
                switch fields[index].string {
                case "o": origin = fields[index + 1].string.flatMap(JournalOrigin.init(name:))
                case "a": action = fields[index + 1].bytes
                case "ms": ms = fields[index + 1].integer ?? 0
                default: break
                }
                index += 2
            }
            guard let origin, let action else { return nil }
            return JournalRow(version: version, origin: origin, action: action, timeMs: ms)
        }
    }

    /// The snapshot of an `HMGET snapshot version state` reply; nil when there is none (or it is not one: a version
    /// that is not an integer from 0 to Int64.max, no state).
    static func snapshot(_ reply: RedisReply) -> StoredSnapshot? {
        guard let parts = reply.array, parts.count == 2, let version = parts[0].integer, version >= 0,
            let json = parts[1].bytes
        else { return nil }
        return StoredSnapshot(version: UInt64(version), state: json)
    }

    /// Binds actions to this store: run here when this node owns it, else forwarded (``run(_:_:waiter:note:deadlineNs:)``).
    func bind(_ leading: ArraySlice<R.Action>, _ last: R.Action) -> PreparedAction {
        PreparedAction { [self] waiter, note in
            var settleMs = 0
            if case .settled(let timeout, _) = waiter { settleMs = Int(timeout / .milliseconds(1)) }
            run(leading, last, waiter: waiter, note: note, deadlineNs: deadline(settleMs: settleMs))
        }
    }

    /// How long an action may wait for an owner: a lease's life and a forward's answer (with its settle timeout).
    func deadline(settleMs: Int = 0) -> UInt64 {
        let ms = node.configuration.leaseMs + node.configuration.forwardTimeoutMs + settleMs
        return MonotonicClock.nowNs() + UInt64(ms) * 1_000_000
    }
}
