/// `GET /stores/{name}/log?since=VERSION&limit=N`: the journal rows after `since` (default 0), at most `limit`
/// (default 1,000, at most 10,000).
struct LogRequest: Equatable {
    var since: UInt64 = 0
    var limit = 1_000

    /// - Throws: ``APIError`` 400 `invalid_query` naming the bad parameter.
    init(_ query: QueryParameters) throws(APIError) {
        if let unknown = query.unknown(["since", "limit"]).first {
            throw StreamRequest.invalid("Unknown query parameter \(JSONText.quoted(unknown)); /log takes since and limit.")
        }
        if let text = query["since"] {
            guard let value = UInt64(text) else { throw StreamRequest.invalid("since must be an unsigned integer (a version).") }
            since = min(value, UInt64(Int64.max))  // versions never get that far; SQLite's integers are signed
        }
        if let text = query["limit"] {
            guard let value = Int(text), (1...10_000).contains(value) else {
                throw StreamRequest.invalid("limit must be an integer from 1 to 10000.")
            }
            limit = value
        }
    }
}
