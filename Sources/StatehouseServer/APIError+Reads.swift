import HTTP1

/// Errors of reads, long polls and time travel.
extension APIError {
    static func versionNotReached(newest: UInt64) -> APIError {
        APIError(status: 404, .versionNotReached, message: "The store is at version \(newest); at= reads a version it has reached.")
    }

    /// 410: `version` is older than the oldest kept (`range` says which are kept).
    static func versionNotRetained(_ version: UInt64, range: String) -> APIError {
        APIError(status: 410, .versionNotRetained, message: "Version \(version) is no longer kept: \(range). Read a later version.")
    }

    static func replayFailed(_ version: UInt64, _ error: any Error) -> APIError {
        APIError(
            status: 500, .replayFailed,
            message: "The state at version \(version) could not be rebuilt (\(error)); see docs/durability.md.")
    }

    /// 404: `/log` on a cluster node: the journal is the store's Redis stream.
    static func logInRedis(_ name: String) -> APIError {
        APIError(
            status: 404, .notDurable,
            message: "Store \(JSONText.quoted(name)) is a cluster store: its journal is the Redis stream {s:\(name)}:log; "
                + "read it with XRANGE (docs/cluster.md).")
    }

    static func notDurable(_ name: String) -> APIError {
        APIError(
            status: 404, .notDurable,
            message: "Store \(JSONText.quoted(name)) lives in memory only, so it keeps no journal; give the server a storage section.")
    }

    /// 503: the journal could not be read.
    static func journalUnreadable(_ error: any Error) -> APIError {
        APIError(
            status: 503, .storageFailed, message: "The journal could not be read (\(error)); retry later.",
            fields: [HTTPField(name: "Retry-After", value: "1")])
    }

    /// 409: `min_version` named a version of an epoch the store is no longer in.
    static func epochMismatch(_ version: UInt64, epoch: String, current: String) -> APIError {
        APIError(
            status: 409, .epochMismatch,
            message: "Version \(version) is of epoch \(JSONText.quoted(epoch)), but the store is in epoch "
                + "\(JSONText.quoted(current)) now (its history began again, e.g. at a restart): this is its state; "
                + "check whether your write is in it.")
    }

    /// 503: a long poll cut short by shutdown (`what`: what it waited for).
    static func shuttingDown(_ what: String) -> APIError {
        APIError(
            status: 503, .shuttingDown,
            message: "The server is shutting down \(what); this is its state now. Retry once it is back.",
            fields: [HTTPField(name: "Retry-After", value: "5")])
    }

    /// 503 (WebSocket): a `"wait":"settled"` action cut short by shutdown; the error message carries the version.
    static let shuttingDownWhileSettling = APIError(
        status: 503, .shuttingDown,
        message: "The server is shutting down before the effects of this action finished (it is reduced all the "
            + "same); \"version\" is the store's version now. Retry once it is back.")

    /// 408: a long poll cut short by the client closing its side (`what`: what it waited for).
    static func clientClosed(_ what: String) -> APIError {
        APIError(
            status: 408, .clientClosed,
            message: "The client closed its side of the connection \(what); this is the state now. Keep the "
                + "connection open while a long poll waits.")
    }

    static func minVersionTimeout(_ version: UInt64, timeoutMs: Int) -> APIError {
        APIError(
            status: 408, .minVersionTimeout,
            message: "The store did not reach version \(version) within \(timeoutMs) ms; this is its state now.")
    }

    /// 408: `wait=settled` did not settle within `ms`.
    static func settleTimeout(ms: Int64) -> APIError {
        APIError(
            status: 408, .settleTimeout,
            message: "The action was reduced but its effects did not finish within \(ms) ms; they keep running. "
                + "This answer gives the version reached so far; raise timeout_ms or read the store later.")
    }
}
