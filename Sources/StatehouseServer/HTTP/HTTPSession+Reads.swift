import Foundation
import HTTP1

extension HTTPSession {
    /// Answers a read from the store's history, after waiting for `min_version` if asked.
    func read(_ request: HTTPRequest, from store: HostedStore) {
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
    private static func epochMismatch(_ store: HostedStore, epoch: String, version: UInt64) -> HTTPResponse {
        errorWithState(.epochMismatch(version, epoch: epoch, current: store.fanout.epoch), store)
    }

    /// An error that also carries the store's newest state and its `ETag`:
    /// `{"error":{"code":…,"message":…},"store":…,"version":…,"state":…}`.
    static func errorWithState(_ error: APIError, _ store: HostedStore) -> HTTPResponse {
        let newest = store.fanout.newest
        let reply = StateReply(version: newest.version, state: newest.json)
        return Responses.json(
            error.status, WireMessage.withError(code: error.code, message: error.message, store: store.name, reply),
            fields: [HTTPField(name: "ETag", value: newest.entityTag)] + error.fields)
    }

    private func readResponse(_ request: HTTPRequest, _ store: HostedStore, _ options: ReadRequest, reached: Bool) -> HTTPResponse {
        let newest = store.fanout.newest
        let tag = HTTPField(name: "ETag", value: newest.entityTag)
        let reply = StateReply(version: newest.version, state: newest.json)
        guard reached else {
            return Self.errorWithState(.minVersionTimeout(options.minVersion ?? 0, timeoutMs: options.timeoutMs), store)
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
