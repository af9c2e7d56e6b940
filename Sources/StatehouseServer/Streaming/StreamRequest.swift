import JSON

/// What a stream request (`/stores/{name}/ws`, `/stores/{name}/events`) asks for, from its query:
/// `format=state|patch`, `path=<JSON Pointer>`, and `epoch=E&since=V` (or SSE's `Last-Event-ID: E-V`) to resume.
struct StreamRequest: Equatable {
    var channel = StreamChannel.whole
    var resume: StreamPosition?

    /// - Throws: ``APIError`` 400 `invalid_query` naming the bad parameter.
    init(_ query: QueryParameters, lastEventID: String? = nil) throws(APIError) {
        // No query (the usual stream request): the whole state, resumed from `Last-Event-ID` only. Issue 18, callgrind:
        // the checks below cost about 2,700 instructions per WebSocket connection even for an empty query.
        if query.isEmpty {
            resume = lastEventID.flatMap(Self.position)
            return
        }
        if let unknown = query.unknown(["format", "path", "since", "epoch"]).first {
            throw Self.invalid("Unknown query parameter \(JSONText.quoted(unknown)); streams take format, path, since and epoch.")
        }
        switch query["format"] {
        case nil, "state": channel.format = .full
        case "patch": channel.format = .patch
        case let other?:
            throw Self.invalid("format=\(JSONText.quoted(other)) is not supported; use format=state (default) or format=patch.")
        }
        if let path = query["path"] {
            do {
                channel.path = try JSONPointer(path)
            } catch {
                throw Self.invalid("path must be a JSON Pointer (RFC 6901) such as /items/0/text, or empty for the whole state.")
            }
            if channel.path?.tokens.isEmpty == true { channel.path = nil }
        }
        resume = try Self.resumePosition(query) ?? lastEventID.flatMap(Self.position)
    }

    /// `epoch=E&since=V` as a position, nil when both are absent.
    /// - Throws: ``APIError`` 400 `invalid_query` when only one is given or `since` is not a version.
    static func resumePosition(_ query: QueryParameters) throws(APIError) -> StreamPosition? {
        switch (query["epoch"], query["since"]) {
        case (nil, nil):
            return nil
        case (let epoch?, let since?):
            guard let version = UInt64(since) else { throw invalid("since must be a version (an unsigned integer).") }
            return StreamPosition(epoch: epoch, version: version)
        default:
            throw invalid(
                "since and epoch go together: both come from the last position you hold (a state message, or the ETag \"<epoch>-<version>\").")
        }
    }

    /// `<epoch>-<version>` as in an SSE `id:` line; nil when malformed (treated as no resume).
    static func position(_ id: String) -> StreamPosition? {
        guard let dash = id.lastIndex(of: "-"), let version = UInt64(id[id.index(after: dash)...]) else { return nil }
        return StreamPosition(epoch: String(id[..<dash]), version: version)
    }

    static func invalid(_ message: String) -> APIError {
        .invalidQuery(message)
    }
}
