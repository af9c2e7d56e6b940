import HTTP1
import Redis

/// Errors of a cluster node (docs/cluster.md).
extension APIError {
    private static let retry = [HTTPField(name: "Retry-After", value: "1")]

    /// No node owns the store yet and this one could not take it in time (its owner died and its lease has not run
    /// out, or the node drains).
    static let storeUnavailable = APIError(
        status: 503, .storeUnavailable,
        message: "The store's owner is changing (a node failed over or drains); retry after Retry-After with the same "
            + "Idempotency-Key, on this node or another.",
        fields: retry)

    /// The owner this node forwarded to does not own the store (any more). Never sent to a client: the forwarding
    /// node asks again who owns it.
    static let storeMoved = APIError(
        status: 503, .storeUnavailable, message: "The store moved to another node; retry with the same Idempotency-Key.",
        fields: retry)

    /// The owner did not answer a forwarded action within `forwardTimeoutMs`.
    static let ownerDidNotAnswer = APIError(
        status: 503, .storeUnavailable,
        message: "The store's owner did not answer in time; the action may have been applied: retry with the same "
            + "Idempotency-Key, which answers it without applying it twice.",
        fields: retry)

    /// Redis cannot be reached.
    static func clusterUnreachable(_ error: RedisError) -> APIError {
        APIError(
            status: 503, .storageUnavailable,
            message: "The cluster's Redis cannot be reached (\(error)); retry after Retry-After with the same Idempotency-Key.",
            fields: retry)
    }

    /// `PUT` or `DELETE` of a store on a cluster node.
    static let storesFixedInCluster = APIError(
        status: 409, .storesFixedInCluster,
        message: "A cluster serves the stores of its configuration only; add or remove a store in every node's "
            + "configuration and restart the nodes one by one.")
}
