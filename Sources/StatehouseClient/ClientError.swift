/// Why a client call failed: the server's own error, or a condition of the client.
///
/// Server errors keep the server's `code` and `message` exactly (docs/protocol.md, *Errors*): an action the server
/// refused (`invalid_action`, `idempotency_key_reused`, `storage_full`, …), a subscription it refused
/// (`store_not_found`, `forbidden`, …), or a WebSocket opening handshake it answered with an HTTP error
/// (`unauthorized`, `origin_not_allowed`, `too_many_connections`, … with its status).
public enum ClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server's error: its `code` (snake_case), its `message` (a sentence saying what to do), and the HTTP status
    /// when it came as an HTTP response (a refused handshake), nil when it came as a WebSocket `error` message.
    case server(code: String, message: String, status: Int?)
    /// A `sendAndSettle` whose action **was applied** (the store reached `version` with it) but whose effects did not
    /// finish: `settle_timeout` (they keep running on the server) or `shutting_down` (the server stopped first). Do not
    /// send it again as a new action.
    case notSettled(code: String, message: String, version: UInt64)
    /// ``RemoteServer/Configuration/maxQueuedActions`` actions already wait for their ack; this one was not queued.
    case queueFull(limit: Int)
    /// No ack came within the ack timeout (ms), counted from the action's first write (an action waiting offline is
    /// not timed). The action may still be applied later, at most once: send it again with the same `id` to learn its
    /// outcome (the server replays it for 10 minutes).
    case timedOut(id: String, afterMs: Int)
    /// The client was closed (``RemoteServer/close()``) or the store released (``RemoteStore/close()``) first.
    case closed
    /// The store was deleted on the server (`{"type":"deleted"}`); its stream ended.
    case storeDeleted(store: String)
    /// A value could not be written as JSON, or the server's JSON did not decode as the reducer's `State`/`Event`
    /// (the app and the server disagree on the types). The text says what and where.
    case decoding(String)
    /// The server URL given to ``RemoteServer`` is not one this client can reach (`http://host:port[/prefix]`).
    case invalidURL(String)

    /// The error's code: the server's, or this client's own (`queue_full`, `timeout`, `closed`, `store_deleted`,
    /// `decoding_failed`, `invalid_url`), the same names the browser client uses.
    public var code: String {
        switch self {
        case .server(let code, _, _): code
        case .notSettled(let code, _, _): code
        case .queueFull: "queue_full"
        case .timedOut: "timeout"
        case .closed: "closed"
        case .storeDeleted: "store_deleted"
        case .decoding: "decoding_failed"
        case .invalidURL: "invalid_url"
        }
    }

    /// A sentence saying what happened and what to do.
    public var message: String {
        switch self {
        case .server(_, let message, _): message
        case .notSettled(_, let message, _): message
        case .queueFull(let limit):
            "\(limit) actions already wait for their ack; await some sends before sending more, or raise maxQueuedActions."
        case .timedOut(let id, let ms):
            "No ack within \(ms) ms; the action (id \(id)) may still be applied once. Send it again with the same id to learn its outcome."
        case .closed: "The client was closed before this finished."
        case .storeDeleted(let store): "The store \"\(store)\" was deleted on the server."
        case .decoding(let what): what
        case .invalidURL(let what): what
        }
    }

    public var description: String { "\(code): \(message)" }
}
