/// `"storage": {"redis": "redis://127.0.0.1:6379", …}` in the configuration: the stores live in Redis and this
/// server is one node of a cluster (docs/cluster.md). Every node of a cluster serves every configured store; one
/// node at a time owns each store (holds its lease) and reduces its actions.
public struct ClusterConfiguration: Sendable, Equatable {
    /// The Redis server: `redis://HOST:PORT[/DB]` or `unix:///path/to/socket`.
    public var redis: String
    /// This node's name, unique in the cluster (configuration `node`, or `statehouse serve --node`); default: the
    /// host name and the process id. It names the node in leases, metrics and logs.
    public var node: String
    /// How long a lease lasts without renewal, ms: the longest a store is unavailable after its owner dies. The owner
    /// renews it every `leaseMs / 4`.
    public var leaseMs: Int = 2_000
    /// A snapshot of a store is written with the commit after this many journaled actions since its last one.
    public var snapshotEveryActions: Int = 1_000
    /// Journal entries kept behind a store's newest snapshot (for followers that catch up and for failover).
    public var retainActions: Int = 10_000
    /// How long an idempotency key's outcome is kept, seconds.
    public var keyTtlSeconds: Int = 600
    /// How long a node waits for the owner's answer to a forwarded action before answering 503, ms.
    public var forwardTimeoutMs: Int = 5_000

    public init(redis: String, node: String) {
        self.redis = redis
        self.node = node
    }
}
