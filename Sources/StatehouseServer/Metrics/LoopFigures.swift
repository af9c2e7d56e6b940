import UVLoop

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
    /// Per store name, its stream subscribers on this loop (stores without any are absent).
    var stores: [String: StreamFigures]

    /// One store's subscribers on one loop.
    struct StreamFigures: Sendable {
        var webSocket = 0
        var serverSentEvents = 0
        /// The newest version minus the version held by this loop's most-behind subscriber (0 when all are caught up).
        var slowestLag: UInt64 = 0
    }

    /// Reads `context`'s loop and its subscribers of `stores`; call on that loop.
    ///
    /// A subscriber's place is the version last queued to its connection (``StreamCursor/lastSent``). One that is not
    /// behind also holds every version its loop has delivered since (``FanoutShard/deliveredVersion``: a change
    /// its channel did not see — a projection that stayed the same — sends it nothing), and, when nothing is queued
    /// for its loop, the newest version. A subscriber that is behind (its connection write-paused) holds only what
    /// was written to it.
    static func read(_ context: ServerContext, stores: [String: HostedStore]) -> LoopFigures {
        context.loop.assertInLoop()
        var figures = LoopFigures(
            loopIndex: context.loopIndex, connections: context.sessions.count, readBytes: context.loop.readBytes,
            writtenBytes: context.loop.writtenBytes, stores: [:])
        for (name, store) in stores {
            let (newest, shard) = store.fanout.newestAndShard(on: context.loop)
            guard let shard, !shard.subscribers.isEmpty else { continue }
            let idle = !shard.isDelivering
            var stream = StreamFigures()
            for members in shard.subscribers.values {
                for subscriber in members.values {
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
            figures.stores[name] = stream
        }
        return figures
    }
}
