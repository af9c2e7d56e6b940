import HTTP1
import WebSocket

/// Errors of a request as such: its HTTP, its endpoint, its query, its body, its WebSocket handshake.
extension APIError {
    /// A refusal of the HTTP/1.1 connection rules or parser (400, 408, 413, 417, 431, 501, 505; the connection closes).
    init(_ failure: HTTPParseFailure) {
        self.init(status: failure.status, code: failure.code, message: failure.message)
    }

    /// A WebSocket handshake that is not valid (RFC 6455 §4.2.1), with the fields that say what is needed.
    init(_ failure: WebSocketHandshakeError) {
        self.init(
            status: failure.status, code: failure.code, message: failure.message,
            fields: failure.extraFields.map { HTTPField(name: $0.name, value: $0.value) })
    }

    static func notFound(_ path: String) -> APIError {
        APIError(
            status: 404, .notFound,
            message: "Nothing is at \(JSONText.quoted(path)); the API is under /stores (see GET /stores) and /healthz.")
    }

    static func methodNotAllowed(_ method: String, allow: [String]) -> APIError {
        APIError(
            status: 405, .methodNotAllowed,
            message: "\(method) is not allowed here; use \(allow.joined(separator: " or ")).",
            fields: [HTTPField(name: "Allow", value: allow.joined(separator: ", "))])
    }

    static func invalidJSON(_ detail: String) -> APIError {
        APIError(
            status: 400, .invalidJSON,
            message: "The body is not valid JSON (\(detail)); send one action object such as {\"type\":\"increment\"}.")
    }

    /// 400 `invalid_action`: JSON, but not an action of the store (`message` says why and lists its action types).
    static func invalidAction(_ message: String) -> APIError {
        APIError(status: 400, .invalidAction, message: message)
    }

    /// 400 `invalid_query`: an unknown parameter or a bad value.
    static func invalidQuery(_ message: String) -> APIError {
        APIError(status: 400, .invalidQuery, message: message)
    }

    /// 400 `invalid_message`: a WebSocket client message that is not one the server takes.
    static func invalidMessage(_ message: String) -> APIError {
        APIError(status: 400, .invalidMessage, message: message)
    }

    /// 426: a plain GET on a WebSocket endpoint (RFC 9110 §15.5.22).
    static let upgradeRequired = APIError(
        status: 426, .upgradeRequired, message: "This endpoint speaks WebSocket; send an Upgrade request.",
        fields: WebSocketHandshakeError.upgradeFields.map { HTTPField(name: $0.name, value: $0.value) })

    /// 400: a WebSocket handshake over HTTP/1.0 (RFC 6455 §4.1).
    static let webSocketNeedsHTTP11 = APIError(
        status: 400, .invalidWebSocketHandshake,
        message: "A WebSocket handshake needs HTTP/1.1 or later (RFC 6455 §4.1); send the request as HTTP/1.1.")

    /// 503: a WebSocket upgrade while the server shuts down.
    static let shuttingDownNoUpgrade = APIError(
        status: 503, .shuttingDown, message: "The server is shutting down; reconnect later.")

    /// 503: over `limits.maxConnections` (or the file descriptor limit).
    static let tooManyConnections = APIError(
        status: 503, .tooManyConnections,
        message: "The server has as many connections as it allows; retry in a few seconds.",
        fields: [HTTPField(name: "Retry-After", value: "5")])
}
