import UVLoop
import Locking

/// What one event loop knows for `GET /metrics`, read on that loop's thread (nothing on the hot path: every figure
/// is a counter the loop keeps anyway, or a walk over its subscribers done here).
struct LoopFigures: Sendable {
    /// The loop's place among the server's loops (label `loop`).
    var loopIndex: Int
    /// Connections of this loop not fully closed yet (HTTP, WebSocket and SSE sessions).
    var connections: Int
    /// Bytes read from, and handed to the kernel for, this loop's connections since start.
    var readBytes: UInt64
    var writtenBytes: UInt64
    /// Bytes the loop's connections were given to send and have not handed to the kernel yet (their write queues).
    var unsentBytes: UInt64
    /// How long the loop's turns worked (``EventLoop/turnTimes``).
    var turnTimes: DurationHistogram.Snapshot
    /// Per store name, its stream subscribers on this loop (stores without any are absent).
    var stores: [String: StreamFigures]

    /// One store's subscribers on one loop.
    struct StreamFigures: Sendable {
        var webSocket = 0
        var serverSentEvents = 0
        /// The newest version minus the version held by this loop's most-behind subscriber (0 when all are caught up).
        var slowestLag: UInt64 = 0
        /// How long ago (ns) the oldest version that subscriber does not hold was made (0 when all are caught up).
        var slowestLagNs: UInt64 = 0
        /// Catch-up messages given to this loop's subscribers that were behind (``FanoutShard/catchUps``).
        var catchUps: UInt64 = 0

        /// The store `name`'s figures over all `loops`: subscribers and catch-ups added up, the lags the largest.
        static func total(of name: String, in loops: [LoopFigures]) -> StreamFigures {
            var total = StreamFigures()
            for stream in loops.compactMap({ $0.stores[name] }) {
                total.webSocket += stream.webSocket
                total.serverSentEvents += stream.serverSentEvents
                total.slowestLag = max(total.slowestLag, stream.slowestLag)
                total.slowestLagNs = max(total.slowestLagNs, stream.slowestLagNs)
                total.catchUps += stream.catchUps
            }
            return total
        }
    }

    /// Reads `context`'s loop and its subscribers of `stores`; call on that loop.
    ///
    /// A subscriber's place is the version last queued to its connection (``StreamCursor/lastSent``). One that is not
    /// behind also holds every version its loop has delivered since (``FanoutShard/deliveredVersion``: a change
    /// its channel did not see — a projection that stayed the same — sends it nothing), and, when nothing is queued
    /// for its loop, the newest version. A subscriber that is behind (its connection write-paused) holds only what
    /// was written to it. The lag in seconds is that of the subscriber with the lowest version held: the age of the
    /// version after it (versions are made in order, so no other subscriber misses an older one).
    static func read(_ context: ServerContext, stores: [String: HostedStore]) -> LoopFigures {
        context.loop.assertInLoop()
        let unsent = context.sessions.values.reduce(0) { $0 + $1.connection.unsentBytes }
        var figures = LoopFigures(
            loopIndex: context.loopIndex, connections: context.sessions.count, readBytes: context.loop.readBytes,
            writtenBytes: context.loop.writtenBytes, unsentBytes: UInt64(unsent),
            turnTimes: context.loop.turnTimes.snapshot(), stores: [:])
        let now = MonotonicClock.nowNs()
        for (name, store) in stores {
            let (newest, shard) = store.fanout.newestAndShard(on: context.loop)
            guard let shard, !shard.subscribers.isEmpty || shard.catchUps > 0 else { continue }
            let idle = !shard.isDelivering
            var stream = StreamFigures()
            stream.catchUps = shard.catchUps
            for members in shard.subscribers.values {
                for subscriber in members.members {
                    let cursor: StreamCursor
                    switch subscriber {
                    case let webSocket as WebSocketSubscription:
                        stream.webSocket += 1
                        cursor = webSocket.cursor
                    case let events as SSESession:
                        stream.serverSentEvents += 1
                        cursor = events.cursor
                    default:
                        continue
                    }
                    let written = cursor.lastSent?.version ?? 0
                    let held = cursor.isBehind ? written : idle ? newest : max(written, shard.deliveredVersion)
                    stream.slowestLag = max(stream.slowestLag, newest > held ? newest - held : 0)
                }
            }
            if stream.slowestLag > 0, let madeAt = store.fanout.madeAt(newest - stream.slowestLag + 1) {
                stream.slowestLagNs = now > madeAt ? now - madeAt : 0
            }
            figures.stores[name] = stream
        }
        return figures
    }
}
