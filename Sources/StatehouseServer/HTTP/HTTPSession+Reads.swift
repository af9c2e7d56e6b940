import Foundation
import HTTP1

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

extension HTTPSession {
    /// Answers a read from the store's history, after waiting for `min_version` if asked.
    func read(_ request: HTTPRequest, from store: any HostedStore) {
        let headOnly = request.method == "HEAD"
        let options: ReadRequest
        do {
            options = try ReadRequest(QueryParameters(request.query))
        } catch {
            send(error: error, keepAlive: request.keepAlive, headOnly: headOnly)
            return
        }
        if let version = options.at { return read(request, from: store, at: version) }
        guard let minVersion = options.minVersion else {
            send(readResponse(request, store, options, reached: true), keepAlive: request.keepAlive, headOnly: headOnly)
            return
        }
        if let epoch = options.minVersionEpoch, epoch != store.fanout.epoch {
            // A version of another epoch says nothing about this one: answered at once, never by waiting.
            send(Self.epochMismatch(store, epoch: epoch, version: minVersion), keepAlive: request.keepAlive, headOnly: headOnly)
            return
        }
        var waiter: VersionWaiter?
        let held = store.fanout.newest.version >= minVersion || holdLongPoll { [unowned self] why in
            send(Self.cutShort(why, store, "before the store reached version \(minVersion)"), keepAlive: false, headOnly: headOnly)
            if let waiter { store.fanout.abandon(waiter, on: context.loop) }  // its timer goes now, not at timeout_ms
        }
        guard held else { return }
        waiter = store.fanout.waitForVersion(minVersion, timeoutMs: options.timeoutMs, on: context.loop) { [self] reached in
            guard isAnswering else { return }  // answered already (shutdown, client gone)
            cutShort = nil
            send(readResponse(request, store, options, reached: reached), keepAlive: request.keepAlive, headOnly: headOnly)
            processNext()
        }
    }

    /// 409 `epoch_mismatch` with the state now: `min_version` named a version of an epoch the store is no longer in.
    private static func epochMismatch(_ store: any HostedStore, epoch: String, version: UInt64) -> HTTPResponse {
        let message = "Version \(version) is of epoch \(JSONText.quoted(epoch)), but the store is in epoch "
            + "\(JSONText.quoted(store.fanout.epoch)) now (its history began again, e.g. at a restart): this is its state; "
            + "check whether your write is in it."
        return errorWithState(409, code: "epoch_mismatch", message: message, store)
    }

    /// An error that also carries the store's newest state and its `ETag`:
    /// `{"error":{"code":…,"message":…},"store":…,"version":…,"state":…}`.
    private static func errorWithState(
        _ status: Int, code: String, message: String, _ store: any HostedStore, fields: [HTTPField] = []
    ) -> HTTPResponse {
        let newest = store.fanout.newest
        let reply = StateReply(version: newest.version, state: newest.json)
        return Responses.json(
            status, WireMessage.withError(code: code, message: message, store: store.name, reply),
            fields: [HTTPField(name: "ETag", value: newest.entityTag)] + fields)
    }

    /// Keeps `cut` for answering the long poll now being waited for (state `busy`), or calls it at once when the
    /// wait could never end well: the server is shutting down (nobody will call ``goAway()`` again) or the client has
    /// closed its side. Returns whether the wait goes on.
    func holdLongPoll(_ cut: @escaping (LongPollCut) -> Void) -> Bool {
        if context.isShuttingDown || rules.isInputClosed {
            cut(context.isShuttingDown ? .shutdown : .peerClosed)
            return false
        }
        cutShort = cut
        return true
    }

    /// Answers the waiting long poll, if any, at once (``LongPollCut``).
    func cutLongPoll(_ why: LongPollCut) {
        guard let cut = cutShort else { return }
        cutShort = nil
        cut(why)
    }

    /// The answer of a long poll cut short, with the state now (`what` says what it waited for): 503 `shutting_down`
    /// with `Retry-After`, or 408 `client_closed`.
    static func cutShort(_ why: LongPollCut, _ store: any HostedStore, _ what: String) -> HTTPResponse {
        switch why {
        case .shutdown:
            let message = "The server is shutting down \(what); this is its state now. Retry once it is back."
            return errorWithState(
                503, code: "shutting_down", message: message, store, fields: [HTTPField(name: "Retry-After", value: "5")])
        case .peerClosed:
            let message = "The client closed its side of the connection \(what); this is the state now. Keep the "
                + "connection open while a long poll waits."
            return errorWithState(408, code: "client_closed", message: message, store)
        }
    }

    private func readResponse(_ request: HTTPRequest, _ store: any HostedStore, _ options: ReadRequest, reached: Bool) -> HTTPResponse {
        let newest = store.fanout.newest
        let tag = HTTPField(name: "ETag", value: newest.entityTag)
        let reply = StateReply(version: newest.version, state: newest.json)
        guard reached else {
            let message = "The store did not reach version \(options.minVersion ?? 0) within \(options.timeoutMs) ms; this is its state now."
            return Self.errorWithState(408, code: "min_version_timeout", message: message, store)
        }
        if let match = request.fields["If-None-Match"], Self.matches(match, newest.entityTag) {
            return HTTPResponse(status: 304, fields: [tag])
        }
        if let resume = options.resume {
            if let patch = store.fanout.patchToNewest(from: resume.version, epoch: resume.epoch) {
                return HTTPResponse(
                    status: 200, fields: [HTTPField(name: "Content-Type", value: "application/json-patch+json"), tag], body: patch.ops)
            }
            return Responses.json(200, WireMessage.storeState(store: store.name, reply, resumed: false), fields: [tag])
        }
        return Responses.json(200, WireMessage.storeState(store: store.name, reply), fields: [tag])
    }

    /// `If-None-Match` (RFC 9110 §13.1.2): `*` or a list of entity tags, compared weakly.
    static func matches(_ header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == tag || trimmed == "W/" + tag
        }
    }
}
