import Foundation
import Synchronization
import UVLoop
import Locking

/// Remembered outcomes of actions sent with an idempotency key (`Idempotency-Key` on HTTP, `"id"` on WebSocket), per
/// store: a repeated key within `ttl` gets the first outcome again without reducing again — also while the first is
/// still running (it waits for it). A key reused with a different action is a conflict.
///
/// Bounded: at most `capacity` keys (the oldest forgotten first), each for `ttl`.
///
/// ## Thread safety
/// Sendable: a lock around the table (sessions on every event loop use it). A waiter is called on the loop it
/// registered from.
final class IdempotencyCache: Sendable {
    /// How a keyed request turned out (what a repeat gets again).
    enum Outcome {
        case reduced(StateReply)
        case timedOut(StateReply)
        /// The action was not applied (its batch could not be written): the key is forgotten, so a retry runs it.
        case failed(APIError)
    }

    enum Lookup {
        /// First time: run it, then call ``complete(_:with:)``.
        case new
        /// Seen and finished: answer with this.
        case replay(Outcome)
        /// Seen, still running: the waiter will be called with the outcome.
        case waiting
        /// Seen with a different action.
        case conflict
    }

    fileprivate struct Entry {
        let fingerprint: UInt64
        let created: ContinuousClock.Instant
        var outcome: Outcome?
        var waiters: [Waiter]
    }

    /// A request waiting for a running key's outcome, and the loop it must be answered on.
    fileprivate struct Waiter: @unchecked Sendable {
        let loop: EventLoop
        let answer: (Outcome) -> Void
    }

    let capacity: Int
    let ttl: Duration
    private let table: Locked<Table>

    /// The keys and their outcomes, oldest first in `order` (from `orderStart`).
    fileprivate struct Table {
        let capacity: Int
        let ttl: Duration
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var orderStart = 0
    }

    init(capacity: Int = 10_000, ttl: Duration = .seconds(600)) {
        self.capacity = capacity
        self.ttl = ttl
        table = Locked(Table(capacity: capacity, ttl: ttl))
    }

    /// Looks `key` up; a new key is recorded as running. `waiter` is kept only for `.waiting`, and called on `loop`.
    func begin(_ key: String, fingerprint: UInt64, on loop: EventLoop, waiter: @escaping (Outcome) -> Void) -> Lookup {
        let waiter = Waiter(loop: loop, answer: waiter)
        return table.withLock { $0.lookUp(key, fingerprint: fingerprint, waiter: waiter) }
    }

    /// Records the outcome of a new key and answers the requests that waited for it (a `.failed` outcome forgets the
    /// key instead: the action was not applied).
    func complete(_ key: String, with outcome: Outcome) {
        let waiters = table.withLock { table -> [Waiter] in
            guard let waiters = table.entries[key]?.waiters else { return [] }
            if case .failed = outcome {
                table.entries[key] = nil
                return waiters
            }
            table.entries[key]?.outcome = outcome
            table.entries[key]?.waiters = []
            return waiters
        }
        for waiter in waiters {
            if waiter.loop.isInLoop { waiter.answer(outcome) } else { waiter.loop.execute { waiter.answer(outcome) } }
        }
    }

    /// Restores the outcomes of keys read from a durable store's database (at startup, before serving), oldest
    /// first: each expires at its `expiresMs` (ms since 1970) as it would have without the restart, and past
    /// `capacity` the oldest are forgotten at once, as they would have been.
    func restore(_ keys: [StoredKey], nowMs: Int64) {
        let now = ContinuousClock.now
        table.withLock { table in
            for key in keys {
                table.keep(key, now: now, nowMs: nowMs)
                table.order.append(key.key)
            }
            table.evict(now: now)
        }
    }
}

extension IdempotencyCache {
    /// Restores the keys the table does not hold as its *oldest* entries (a cluster node taking a store's lease, or
    /// reading its keys again): keys of actions running or answered here keep their waiters and outcomes, and when
    /// the table is over capacity the restored keys, soonest to expire first, are forgotten before any of them.
    func restoreMissing(_ keys: [StoredKey], nowMs: Int64) {
        let now = ContinuousClock.now
        table.withLock { table in
            let missing = keys.filter { table.entries[$0.key] == nil }.sorted { $0.expiresMs < $1.expiresMs }
            for key in missing { table.keep(key, now: now, nowMs: nowMs) }
            table.order.insert(contentsOf: missing.map(\.key), at: table.orderStart)
            table.evict(now: now)
        }
    }
}

extension IdempotencyCache.Table {
    /// Holds a stored key's outcome (its place in `order` is the caller's), dated so that it expires at its
    /// `expiresMs` (ms since 1970, as of `nowMs`), as it would have where it was first answered.
    fileprivate mutating func keep(_ key: StoredKey, now: ContinuousClock.Instant, nowMs: Int64) {
        let remaining = Duration.milliseconds(max(0, key.expiresMs - nowMs))
        entries[key.key] = IdempotencyCache.Entry(
            fingerprint: key.fingerprint, created: now - (ttl - min(ttl, remaining)),
            outcome: .reduced(StateReply(version: key.version, state: key.state)), waiters: [])
    }

    fileprivate mutating func lookUp(_ key: String, fingerprint: UInt64, waiter: IdempotencyCache.Waiter) -> IdempotencyCache.Lookup {
        let now = ContinuousClock.now
        if let entry = entries[key], now - entry.created < ttl {
            guard entry.fingerprint == fingerprint else { return .conflict }
            if let outcome = entry.outcome { return .replay(outcome) }
            entries[key]?.waiters.append(waiter)
            return .waiting
        }
        entries[key] = IdempotencyCache.Entry(fingerprint: fingerprint, created: now, outcome: nil, waiters: [])
        order.append(key)
        evict(now: now)
        return .new
    }

    /// Forgets expired keys and the oldest beyond capacity (never one still running).
    fileprivate mutating func evict(now: ContinuousClock.Instant) {
        while orderStart < order.count {
            let key = order[orderStart]
            guard let entry = entries[key] else { orderStart += 1; continue }
            let expired = now - entry.created >= ttl
            let over = entries.count > capacity
            guard (expired || over), entry.outcome != nil || expired else { break }
            entries[key] = nil
            orderStart += 1
        }
        if orderStart > 1024, orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }
}
