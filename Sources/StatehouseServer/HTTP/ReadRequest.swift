/// `GET /stores/{name}` with its conditional, resume and read-your-writes options.
struct ReadRequest {
    var resume: StreamPosition?
    var minVersion: UInt64?
    /// The epoch `min_version` belongs to (`epoch=E`, with or without `since`); nil: whatever epoch the store is in.
    var minVersionEpoch: String?
    var timeoutMs = 10_000
    /// `at=VERSION`: the state at a retained version (time travel); alone.
    var at: UInt64?

    /// - Throws: ``APIError`` 400 `invalid_query`.
    init(_ query: QueryParameters) throws(APIError) {
        if let unknown = query.unknown(["since", "epoch", "min_version", "timeout_ms", "at"]).first {
            throw StreamRequest.invalid(
                "Unknown query parameter \(JSONText.quoted(unknown)); reads take since, epoch, min_version, timeout_ms and at.")
        }
        if let text = query["at"] {
            guard let version = UInt64(text) else { throw StreamRequest.invalid("at must be an unsigned integer (a version).") }
            guard query.unknown(["at"]).isEmpty else {
                throw StreamRequest.invalid("at= reads one version and takes no other parameter.")
            }
            at = version
            return
        }
        if let text = query["min_version"] {
            guard let version = UInt64(text) else { throw StreamRequest.invalid("min_version must be an unsigned integer.") }
            minVersion = version
            minVersionEpoch = query["epoch"]
        }
        // With min_version, `epoch` may stand alone (it qualifies the version); otherwise it goes with `since`.
        if minVersion == nil || query["since"] != nil { resume = try StreamRequest.resumePosition(query) }
        if let text = query["timeout_ms"] {
            guard minVersion != nil else { throw StreamRequest.invalid("timeout_ms goes with min_version.") }
            guard let value = Int(text), (0...600_000).contains(value) else {
                throw StreamRequest.invalid("timeout_ms must be an integer from 0 to 600000 (milliseconds).")
            }
            timeoutMs = value
        }
    }
}
