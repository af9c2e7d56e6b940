import Synchronization
import Foundation
import Statehouse
import StatehouseCore
import JSONCoding
import JSON
import Redis
import Locking

/// One store of a cluster on this node (docs/cluster.md): the node follows it (its view is the committed stream,
/// applied through the reducer with no effect run, and streamed to this node's subscribers) or owns it (a
/// ``TypedStore`` reduces, runs effects and commits each batch to Redis through the fenced commit function).
///
/// Roles, one at a time (``Role``):
///
/// ```
///   following ──action, no owner known──▶ acquiring ──lease taken, caught up──▶ owning
///       ▲  ▲                                  │ held by another node                │ lease refused, commit fenced
///       │  └──────────────────────────────────┘                                     │ or failed, node drains
///       └────────────── steppingDown (the store stops: effects cancelled) ◀─────────┘
/// ```
///
/// Actions sent while `acquiring` or `steppingDown` wait for the role to settle; while `following` with a known
/// owner they are forwarded to it (``ClusterNode/forward(_:to:done:)``). The fan-out (history, subscribers) is the
/// same object in every role, so a subscriber on this node never notices the owner change.
///
/// ## Thread safety
/// Sendable: the role and view behind one lock; the fan-out is thread-safe.
final class ClusteredStore<R: ServableReducer>: ClusterMember {
    let name: String
    let keys: StoreKeys
    let node: ClusterNode
    let fanout: StoreFanout
    let decoded: DecodedActions<R.Action>
    /// The state a reset restores.
    let initialState: R.State
    let executor: (any StoreExecutor)?
    let logging: StoreLogging
    let logger: Logger
    let machine: Locked<Machine>
    /// How long an owner found gone is not asked again: 250 ms.
    static var goneOwnerPauseNs: UInt64 { 250_000_000 }

    /// Journaled actions since the last snapshot written (the committer's thread only).
    let sinceSnapshot = Atomic<Int>(0)

    enum Role {
        case following
        case acquiring
        case owning(TypedStore<R>, ClusterLease)
        case steppingDown
    }

    /// The role and the view, behind ``machine``'s lock.
    struct Machine {
        var role: Role = .following
        /// The newest committed state this node knows (while following; while owning, the store holds it).
        var view: Snapshot<R.State>
        /// The lease value (`NODE:TOKEN`) of the owner as last seen, when another node holds it.
        var owner: String?
        /// An owner whose inbox nobody read, and until when (monotonic ns) not to forward to it again: it died (its
        /// lease runs out within `leaseMs`) or its subscriber is reconnecting to a restarted Redis (it renews its
        /// lease meanwhile, so it is asked again after ``ClusteredStore/goneOwnerPauseNs``).
        var goneOwner: (lease: String, untilNs: UInt64)?

        /// Whether `owner` was found gone a moment ago.
        func isGone(_ owner: String) -> Bool {
            guard let goneOwner, goneOwner.lease == owner else { return false }
            return MonotonicClock.nowNs() < goneOwner.untilNs
        }
        /// Actions waiting for the role to settle.
        var waiting: [Waiting] = []
        /// A read of the stream is in flight.
        var catchingUp = false
        /// The idempotency keys Redis held when this node took the lease: an action whose key is among them was
        /// applied by an earlier owner (a client's retry after a failover) and is answered, not applied again.
        var restoredKeys: [String: StoredKey] = [:]
        /// The hosted store (for its idempotency cache); weak: it holds this object.
        weak var hosted: HostedStore?
        /// A row the reducer could not read stopped the view at its version (logged once).
        var stuck = false
        /// Redis was found behind the view (it lost data): logged once.
        var warnedLoss = false
    }

    /// An action waiting for the role to settle: run again, or fail.
    struct Waiting {
        let again: @Sendable () -> Void
        let fail: @Sendable (APIError) -> Void
    }

    init(
        name: String, node: ClusterNode, fanout: StoreFanout, view: Snapshot<R.State>, initialState: R.State,
        executor: (any StoreExecutor)?, decoded: DecodedActions<R.Action>, logging: StoreLogging, logger: Logger
    ) {
        self.name = name
        keys = StoreKeys(name)
        self.node = node
        self.fanout = fanout
        self.initialState = initialState
        self.executor = executor
        self.decoded = decoded
        self.logging = logging
        self.logger = logger
        machine = Locked(Machine(view: view))
    }

    var keyTtlSeconds: Int { node.configuration.keyTtlSeconds }
    var nodeName: String { node.name }

    var ownership: ClusterOwnership {
        let taken = node.leaseTaken(name)
        return machine.withLock { machine in
            switch machine.role {
            case .owning(let typed, let lease):
                let held = taken.map { Int64((MonotonicClock.nowNs() - $0) / 1_000_000) }
                return ClusterOwnership(owned: true, heldMs: held, owner: lease.value, version: typed.fanout.newest.version)
            default:
                return ClusterOwnership(owned: false, heldMs: nil, owner: machine.owner, version: machine.view.version)
            }
        }
    }

    /// The reducer's figures while this node owns the store; zeros otherwise.
    var actionCounts: HostedStore.ActionFigures {
        guard case .owning(let typed, _) = machine.withLock({ $0.role }) else { return (0, 0, nil) }
        return (typed.store.actionCounts.reduced, typed.store.actionCounts.dropped, typed.store.actionCounts.reduceDurations)
    }
}

/// A lease this node holds on a store: its value in Redis and its fencing token.
struct ClusterLease: Sendable {
    let value: String
    let token: Int64
}
