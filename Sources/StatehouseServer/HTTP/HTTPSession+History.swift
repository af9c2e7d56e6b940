import Dispatch
import HTTP1

/// Time travel and audit: `GET /stores/{name}?at=VERSION` and `GET /stores/{name}/log?since=VERSION&limit=N`.
///
/// Both may read the database and replay actions, so they run on a background queue, never on the event loop; the
/// answer comes back to the loop.
extension HTTPSession {
    /// Reads that leave the loop.
    static let historyQueue = DispatchQueue(label: "statehouse.history", qos: .utility, attributes: .concurrent)

    /// `?at=VERSION`: 200 with the state at that version; 404 `version_not_reached` past the newest, 410
    /// `version_not_retained` before the oldest kept (the history for a store in memory, the journal for a durable one).
    func read(_ request: HTTPRequest, from store: HostedStore, at version: UInt64) {
        let headOnly = request.method == "HEAD"
        let newest = store.fanout.newest.version
        if version > newest {
            return send(error: .versionNotReached(newest: newest), keepAlive: request.keepAlive, headOnly: headOnly)
        }
        answerOffLoop(request, headOnly: headOnly) {
            do {
                guard let json = try store.state(at: version) else { return Responses.error(Self.notRetained(store, version)) }
                return Responses.json(200, WireMessage.storeState(store: store.name, StateReply(version: version, state: json)))
            } catch {
                return Responses.error(.replayFailed(version, error))
            }
        }
    }

    /// Builds the answer on ``historyQueue`` (blocking reads, replays), then sends it on the loop.
    private func answerOffLoop(_ request: HTTPRequest, headOnly: Bool, _ build: @escaping @Sendable () -> HTTPResponse) {
        let loop = context.loop
        Self.historyQueue.async { [self] in
            let response = build()
            loop.execute { [self] in finish(response, keepAlive: request.keepAlive, headOnly: headOnly) }
        }
    }

    private static func notRetained(_ store: HostedStore, _ version: UInt64) -> APIError {
        var range = "only the last \(store.fanout.historyCount) versions are kept in memory"
        if let persistence = store.persistence,
            let kept = try? persistence.durability.database.retained(storeID: persistence.storeID)
        {
            range = "versions \(kept.lowerBound) to \(kept.upperBound) are kept (storage.retainActions)"
        }
        return .versionNotRetained(version, range: range)
    }

    /// `/log?since=VERSION&limit=N`: the journal after `since` (default 0), at most `limit` (default 1,000, at most
    /// 10,000) entries, as JSON lines (`application/x-ndjson`), oldest first; 404 `not_durable` for a store in memory.
    func readLog(_ request: HTTPRequest, from store: HostedStore) {
        let headOnly = request.method == "HEAD"
        let log: LogRequest
        do {
            log = try LogRequest(QueryParameters(request.query))
        } catch {
            return send(error: error, keepAlive: request.keepAlive, headOnly: headOnly)
        }
        guard let persistence = store.persistence else {
            return send(error: store.cluster != nil ? .logInRedis(store.name) : .notDurable(store.name), keepAlive: request.keepAlive, headOnly: headOnly)
        }
        answerOffLoop(request, headOnly: headOnly) { [since = log.since, limit = log.limit] in
            do {
                let rows = try persistence.durability.database.log(storeID: persistence.storeID, since: since, limit: limit)
                var body: [UInt8] = []
                for row in rows { JournalRendering.line(row, into: &body) }
                return HTTPResponse(status: 200, fields: [HTTPField(name: "Content-Type", value: "application/x-ndjson")], body: body)
            } catch {
                return Responses.error(.journalUnreadable(error))
            }
        }
    }
}
