import HTTP1

/// Errors of durable storage (docs/durability.md).
extension APIError {
    /// The answer to an action whose batch could not be written (commit mode): 507 when the database is full
    /// (RFC 4918 §11.5), 503 otherwise.
    static func notWritten(_ error: any Error) -> APIError {
        if let error = error as? StorageError, error.isFull {
            return APIError(
                status: 507, .storageFull,
                message: "The store's database is full (storage.maxBytes or the disk), so the action was not applied; "
                    + "free space or raise the limit, then retry.")
        }
        if let error = error as? ClusterCommitError {
            let outcome = error.maybeApplied
                ? "Redis's answer was lost, so it may have been applied" : "Redis refused it, so it was not applied"
            return APIError(
                status: 503, .storageFailed,
                message: "The action's commit to the cluster's Redis failed (\(error.message)): \(outcome); retry with the "
                    + "same Idempotency-Key after Retry-After, which applies it once.",
                fields: [HTTPField(name: "Retry-After", value: "1")])
        }
        return APIError(
            status: 503, .storageFailed,
            message: "The action could not be written to the store's database and was not applied (\(error)); retry later.",
            fields: [HTTPField(name: "Retry-After", value: "1")])
    }

    /// The answer while writing fails in `interval` or `off` mode: the store takes no action until it works again.
    static func storageUnavailable(_ error: StorageError) -> APIError {
        APIError(
            status: 503, .storageUnavailable,
            message: "The server cannot write to its database (\(error)); actions are refused until it can. Retry later.",
            fields: [HTTPField(name: "Retry-After", value: "1")])
    }
}
