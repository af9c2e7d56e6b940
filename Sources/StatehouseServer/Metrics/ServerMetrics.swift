import Locking

/// The `GET /metrics` body: every figure of the server in the Prometheus text exposition format 0.0.4
/// (docs/operations.md, *Metrics*, lists each name, type and label).
enum ServerMetrics {
    /// `text/plain; version=0.0.4; charset=utf-8`, what Prometheus expects of this format.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The exposition of `stores` (with the figures every loop read of them), `loops`, `storage` (nil without a
    /// database) and `process`.
    static func exposition(
        stores: [String: HostedStore], loops: [LoopFigures], storage: WriterFigures?, process: ProcessFigures
    ) -> [UInt8] {
        var text = MetricsExposition()
        let names = stores.keys.sorted()
        let loops = loops.sorted { $0.loopIndex < $1.loopIndex }
        func perStore(_ value: (HostedStore) -> Double) -> [MetricsExposition.Sample] {
            names.compactMap { name in stores[name].map { (["store": name, "reducer": $0.reducerName], value($0)) } }
        }
        text.family(
            "statehouse_store_version", .gauge, help: "The store's newest version (+1 per action that changed its state).",
            perStore { Double($0.fanout.newest.version) })
        text.family(
            "statehouse_store_actions_reduced_total", .counter,
            help: "Actions the store's reducer ran (from clients and from effects) since the store was created.",
            perStore { Double($0.actionCounts.reduced) })
        text.family(
            "statehouse_store_actions_dropped_total", .counter,
            help: "Actions dropped at reduce time (their effect was cancelled, or the store stopped) since the store was created.",
            perStore { Double($0.actionCounts.dropped) })
        var refused: [MetricsExposition.Sample] = []
        for name in names {
            guard let store = stores[name] else { continue }
            for (code, count) in store.refusedActions.sorted(by: { $0.key < $1.key }) {
                refused.append((["store": name, "reducer": store.reducerName, "code": code], Double(count)))
            }
        }
        text.family(
            "statehouse_store_actions_refused_total", .counter,
            help: "Actions refused before reaching the store because they did not decode, by error code, since the store was created.",
            refused)
        text.histogram(
            "statehouse_store_reduce_duration_seconds",
            help: "How long the store's reducer took per action (stores that reduced none are left out).",
            names.compactMap { name in
                guard let store = stores[name], let durations = store.actionCounts.reduceDurations else { return nil }
                return (["store": name, "reducer": store.reducerName], durations)
            })
        var owned: [MetricsExposition.Sample] = []
        var held: [MetricsExposition.Sample] = []
        for name in names {
            guard let store = stores[name], let member = store.cluster else { continue }
            let ownership = member.ownership
            let labels: KeyValuePairs<String, String> = ["store": name, "reducer": store.reducerName, "node": member.nodeName]
            owned.append((labels, ownership.owned ? 1 : 0))
            held.append((labels, Double(ownership.heldMs ?? 0) / 1_000))
        }
        if !owned.isEmpty {
            text.family(
                "statehouse_store_owned", .gauge,
                help: "1 when this cluster node holds the store's lease (reduces its actions), else 0 (docs/cluster.md).",
                owned)
            text.family(
                "statehouse_store_lease_held_seconds", .gauge,
                help: "How long this cluster node has held the store's lease without losing it (0 when it does not hold it).",
                held)
        }
        var subscribers: [MetricsExposition.Sample] = []
        var lag: [MetricsExposition.Sample] = []
        var lagSeconds: [MetricsExposition.Sample] = []
        var catchUps: [MetricsExposition.Sample] = []
        for name in names {
            guard let store = stores[name] else { continue }
            let streams = LoopFigures.StreamFigures.total(of: name, in: loops)
            let labels: KeyValuePairs<String, String> = ["store": name, "reducer": store.reducerName]
            for (transport, count) in [
                ("websocket", streams.webSocket), ("sse", streams.serverSentEvents),
            ] {
                subscribers.append((["store": name, "reducer": store.reducerName, "transport": transport], Double(count)))
            }
            lag.append((labels, Double(streams.slowestLag)))
            lagSeconds.append((labels, Double(streams.slowestLagNs) / 1e9))
            catchUps.append((labels, Double(streams.catchUps)))
        }
        text.family(
            "statehouse_store_subscribers", .gauge, help: "Stream subscribers of the store, by transport (websocket, sse).",
            subscribers)
        text.family(
            "statehouse_store_slowest_subscriber_lag_versions", .gauge,
            help: "The newest version minus the version held by the store's most-behind subscriber (0 without subscribers).",
            lag)
        text.family(
            "statehouse_store_slowest_subscriber_lag_seconds", .gauge,
            help: "How long ago the oldest version the store's most-behind subscriber does not hold was made (0 when all hold the newest).",
            lagSeconds)
        text.family(
            "statehouse_store_catch_ups_total", .counter,
            help: "Conflated catch-ups: a subscriber that fell behind got one message to the newest state instead of every version it missed.",
            catchUps)
        func perLoop(_ value: (LoopFigures) -> Double) -> [MetricsExposition.Sample] {
            loops.map { (["loop": String($0.loopIndex)], value($0)) }
        }
        text.family(
            "statehouse_loop_connections", .gauge, help: "Connections of the event loop not fully closed yet.",
            perLoop { Double($0.connections) })
        text.family(
            "statehouse_loop_read_bytes_total", .counter, help: "Bytes read from the event loop's connections.",
            perLoop { Double($0.readBytes) })
        text.family(
            "statehouse_loop_written_bytes_total", .counter,
            help: "Bytes the event loop's connections handed to the kernel to send.", perLoop { Double($0.writtenBytes) })
        text.family(
            "statehouse_loop_unsent_bytes", .gauge,
            help: "Bytes queued on the event loop's connections and not yet handed to the kernel.",
            perLoop { Double($0.unsentBytes) })
        text.histogram(
            "statehouse_loop_turn_duration_seconds",
            help: "How long each turn of the event loop worked (time blocked waiting for I/O not counted).",
            loops.map { (["loop": String($0.loopIndex)], $0.turnTimes) })
        if let storage {
            let none: KeyValuePairs<String, String> = [:]
            text.family(
                "statehouse_storage_transactions_total", .counter,
                help: "Transactions of the database writer by outcome (committed, failed: rolled back, to be retried or failed).",
                [(["outcome": "committed"], Double(storage.committedTransactions)),
                 (["outcome": "failed"], Double(storage.failedTransactions))])
            text.family(
                "statehouse_storage_committed_writes_total", .counter,
                help: "Writes (action batches, resets, stores created or deleted) in committed transactions; over transactions: the group commit's batch size.",
                [(none, Double(storage.committedRequests))])
            text.histogram(
                "statehouse_storage_transaction_duration_seconds",
                help: "How long each transaction took, BEGIN to COMMIT returning (its fsync included).",
                [(none, storage.transactionTimes)])
            text.family(
                "statehouse_storage_file_bytes", .gauge, help: "Size of the SQLite database, by file (database, wal).",
                [(["file": "database"], Double(storage.databaseBytes)), (["file": "wal"], Double(storage.walBytes))])
        }
        func single(_ value: UInt64?) -> [MetricsExposition.Sample] {
            guard let value else { return [] }
            let none: KeyValuePairs<String, String> = [:]
            return [(none, Double(value))]
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
