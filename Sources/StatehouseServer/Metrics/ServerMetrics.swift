import Locking

/// The `GET /metrics` body: every figure of the server in the Prometheus text exposition format 0.0.4
/// (docs/operations.md, *Metrics*, lists each name, type and label).
enum ServerMetrics {
    /// `text/plain; version=0.0.4; charset=utf-8`, what Prometheus expects of this format.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The exposition of `stores` (with the figures every loop read of them), `loops` and `process`.
    static func exposition(stores: [String: HostedStore], loops: [LoopFigures], process: ProcessFigures) -> [UInt8] {
        var text = MetricsExposition()
        let names = stores.keys.sorted()
        let loops = loops.sorted { $0.loopIndex < $1.loopIndex }
        func perStore(_ value: (HostedStore) -> UInt64) -> [MetricsExposition.Sample] {
            names.compactMap { name in stores[name].map { (["store": name, "reducer": $0.reducerName], value($0)) } }
        }
        text.family(
            "statehouse_store_version", .gauge, help: "The store's newest version (+1 per action that changed its state).",
            perStore { $0.fanout.newest.version })
        text.family(
            "statehouse_store_actions_reduced_total", .counter,
            help: "Actions the store's reducer ran (from clients and from effects) since the store was created.",
            perStore { $0.actionCounts.reduced })
        text.family(
            "statehouse_store_actions_dropped_total", .counter,
            help: "Actions dropped at reduce time (their effect was cancelled, or the store stopped) since the store was created.",
            perStore { $0.actionCounts.dropped })
        var refused: [MetricsExposition.Sample] = []
        for name in names {
            guard let store = stores[name] else { continue }
            for (code, count) in store.refusedActions.sorted(by: { $0.key < $1.key }) {
                refused.append((["store": name, "reducer": store.reducerName, "code": code], count))
            }
        }
        text.family(
            "statehouse_store_actions_refused_total", .counter,
            help: "Actions refused before reaching the store because they did not decode, by error code, since the store was created.",
            refused)
        var subscribers: [MetricsExposition.Sample] = []
        var lag: [MetricsExposition.Sample] = []
        for name in names {
            guard let store = stores[name] else { continue }
            let streams = loops.compactMap { $0.stores[name] }
            let reducer = store.reducerName
            subscribers.append((["store": name, "reducer": reducer, "transport": "websocket"], UInt64(streams.reduce(0) { $0 + $1.webSocket })))
            subscribers.append((["store": name, "reducer": reducer, "transport": "sse"], UInt64(streams.reduce(0) { $0 + $1.serverSentEvents })))
            lag.append((["store": name, "reducer": reducer], streams.map(\.slowestLag).max() ?? 0))
        }
        text.family(
            "statehouse_store_subscribers", .gauge, help: "Stream subscribers of the store, by transport (websocket, sse).",
            subscribers)
        text.family(
            "statehouse_store_slowest_subscriber_lag_versions", .gauge,
            help: "The newest version minus the version held by the store's most-behind subscriber (0 without subscribers).",
            lag)
        text.family(
            "statehouse_loop_connections", .gauge, help: "Connections of the event loop not fully closed yet.",
            loops.map { (["loop": String($0.loopIndex)], UInt64($0.connections)) })
        text.family(
            "statehouse_loop_read_bytes_total", .counter, help: "Bytes read from the event loop's connections.",
            loops.map { (["loop": String($0.loopIndex)], $0.readBytes) })
        text.family(
            "statehouse_loop_written_bytes_total", .counter,
            help: "Bytes the event loop's connections handed to the kernel to send.",
            loops.map { (["loop": String($0.loopIndex)], $0.writtenBytes) })
        func single(_ value: UInt64?) -> [MetricsExposition.Sample] {
            guard let value else { return [] }
            let none: KeyValuePairs<String, String> = [:]
            return [(none, value)]
        }
        text.family(
            "statehouse_process_open_fds", .gauge, help: "File descriptors the process has open.",
            single(process.openFileDescriptors))
        text.family(
            "statehouse_process_max_fds", .gauge, help: "The process's file descriptor limit (soft RLIMIT_NOFILE).",
            single(process.maxFileDescriptors))
        text.family(
            "statehouse_process_resident_memory_bytes", .gauge, help: "Resident memory of the process (RSS).",
            single(process.residentMemoryBytes))
        return text.bytes
    }
}

/// Collects one ``LoopFigures`` from each loop (each read on its own loop) and calls `done` once with all of them,
/// on the thread of the last loop to answer.
///
/// ## Thread safety
/// Sendable: a lock around the figures gathered so far.
final class MetricsGathering: Sendable {
    private let expected: Int
    private let gathered = Locked<[LoopFigures]>([])
    private let done: @Sendable ([LoopFigures]) -> Void

    init(expected: Int, done: @escaping @Sendable ([LoopFigures]) -> Void) {
        self.expected = expected
        self.done = done
        if expected == 0 { done([]) }
    }

    func add(_ figures: LoopFigures) {
        let all = gathered.withLock { gathered -> [LoopFigures]? in
            gathered.append(figures)
            return gathered.count == expected ? gathered : nil
        }
        if let all { done(all) }
    }
}
