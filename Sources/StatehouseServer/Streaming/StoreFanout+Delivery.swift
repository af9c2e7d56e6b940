import Locking
import UVLoop

extension StoreFanout {
    /// Messages delivered between two looks at the clock (and two flushes of the writes): a few hundred µs.
    static var deliverySlice: Int { 256 }

    /// How long one drain job runs at most (a quarter of the loop's turn budget): then it steps behind the jobs
    /// queued meanwhile, so a request's hops (its store's job, then its reply) run in the same turn, between slices.
    static var drainJobNs: UInt64 { EventLoop.turnBudgetNs / 4 }

    /// A shard's drain job (on its loop): delivers every queued delivery in rounds, a slice of subscribers at a
    /// time, until nothing is queued, and re-enqueues itself behind the loop's other jobs once the turn's budget is
    /// spent (``EventLoop/isTurnBudgetSpent``), or after ``drainJobNs``. So a fan-out to thousands of subscribers
    /// runs about 2 ms per loop turn, and the loop's other jobs and connections are served between its slices.
    /// Changes queued while a round is under way join it (``DeliveryRound/absorb(_:of:)``): a subscriber not reached
    /// yet gets every message due for it with one write.
    /// Writes are flushed after each slice, so their system calls count in the budget (and replies written
    /// meanwhile go out). At the end of a round, waiters of its newest version wake and the work that waited for it
    /// (acks) runs.
    func drain(_ shard: FanoutShard) {
        shard.loop.assertInLoop()
        let loop = shard.loop
        let jobEnds = MonotonicClock.nowNs() &+ Self.drainJobNs
        while true {
            if shard.round == nil {
                let deliveries = shard.takeQueued()
                if deliveries.isEmpty {
                    shard.runAfterDelivery(upTo: .max)
                    return
                }
                shard.round = DeliveryRound(deliveries, of: shard)
            }
            guard let round = shard.round else { return }
            // Changes queued since the round began go out with its messages to the subscribers it has not reached.
            if round.canAbsorb, let changes = shard.takeQueuedChanges() { round.absorb(changes, of: shard) }
            if round.deliverSlice(Self.deliverySlice, in: shard) {
                shard.round = round.followUp
                if let version = round.newestVersion {
                    shard.deliveredVersion = max(shard.deliveredVersion, version)
                    if !shard.waiters.isEmpty { wakeWaiters(in: shard, version: version) }
                }
                shard.runAfterDelivery(upTo: shard.deliveredVersion)
            } else {
                loop.flushGatheredWrites()
            }
            if loop.isTurnBudgetSpent || MonotonicClock.nowNs() > jobEnds {
                loop.execute { self.drain(shard) }
                return
            }
        }
    }

    /// Runs `body` on `loop` once every change queued so far for `loop` has reached its subscribers up to `version`
    /// (at once when nothing is on its way): an ack then follows the state message of its version (loop thread).
    func afterDelivery(of version: UInt64, on loop: EventLoop, _ body: @escaping () -> Void) {
        loop.assertInLoop()
        guard let shard = shared.withLock({ $0.shards.first { $0.loop === loop } }) else { return body() }
        shard.afterDelivery(of: version, body)
    }
}
