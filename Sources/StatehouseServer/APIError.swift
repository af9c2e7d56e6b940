public import HTTP1

/// An error answer of the API: an HTTP status and the JSON body
/// `{"error":{"code":"snake_case","message":"…"}}`; on WebSocket, the same code and message in an `error` message.
///
/// Every error the server sends is built by a static member of `APIError` (the `APIError+…` files, by concern), each
/// with a ``Code``; docs/protocol.md lists every code (a test checks both ways).
public struct APIError: Error, Sendable, Equatable {
    /// HTTP status (RFC 9110 §15).
    public var status: Int
    /// Stable snake_case code clients can switch on (one of ``allCodes``).
    public var code: String
    /// One sentence saying what was wrong and what to do.
    public var message: String
    /// Extra response fields, e.g. `Allow` for 405.
    public var fields: [HTTPField]

    public init(status: Int, code: String, message: String, fields: [HTTPField] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields
    }

    init(status: Int, _ code: Code, message: String, fields: [HTTPField] = []) {
        self.init(status: status, code: code.rawValue, message: message, fields: fields)
    }

    /// The JSON body, e.g. `{"error":{"code":"not_found","message":"…"}}`.
    public var body: [UInt8] {
        Array("{\"error\":{\"code\":\(JSONText.quoted(code)),\"message\":\(JSONText.quoted(message))}}".utf8)
    }

    /// Every code the API sends, over HTTP or WebSocket (docs/protocol.md, *Errors*).
    public static let allCodes: [String] = Code.allCases.map(\.rawValue)

    /// The codes, one per kind of error (the `When` column of docs/protocol.md's error table).
    enum Code: String, CaseIterable {
        // Requests (HTTP1 refusals, routing, bodies, queries)
        case badRequest = "bad_request"
        case invalidHost = "invalid_host"
        case requestTimeout = "request_timeout"
        case payloadTooLarge = "payload_too_large"
        case headerFieldsTooLarge = "header_fields_too_large"
        case expectationFailed = "expectation_failed"
        case transferCodingNotImplemented = "transfer_coding_not_implemented"
        case httpVersionNotSupported = "http_version_not_supported"
        case notFound = "not_found"
        case methodNotAllowed = "method_not_allowed"
        case invalidJSON = "invalid_json"
        case invalidAction = "invalid_action"
        case invalidQuery = "invalid_query"
        case invalidMessage = "invalid_message"
        case invalidIdempotencyKey = "invalid_idempotency_key"
        case idempotencyKeyReused = "idempotency_key_reused"
        // WebSocket handshakes (RFC 6455 §4.2.1, from the WebSocket module)
        case invalidWebSocketHandshake = "invalid_websocket_handshake"
        case upgradeRequired = "upgrade_required"
        case unsupportedWebSocketVersion = "unsupported_websocket_version"
        // Access
        case unauthorized
        case forbidden
        case originNotAllowed = "origin_not_allowed"
        // Stores
        case storeNotFound = "store_not_found"
        case invalidStoreName = "invalid_store_name"
        case invalidStore = "invalid_store"
        case unknownReducer = "unknown_reducer"
        case invalidState = "invalid_state"
        case storeExists = "store_exists"
        case tooManyStores = "too_many_stores"
        case internalError = "internal_error"
        // Reads and waits
        case minVersionTimeout = "min_version_timeout"
        case settleTimeout = "settle_timeout"
        case clientClosed = "client_closed"
        case epochMismatch = "epoch_mismatch"
        case versionNotReached = "version_not_reached"
        case versionNotRetained = "version_not_retained"
        case notDurable = "not_durable"
        case replayFailed = "replay_failed"
        // Storage and the server
        case storageFailed = "storage_failed"
        case storageFull = "storage_full"
        case storageUnavailable = "storage_unavailable"
        // Clusters
        case storeUnavailable = "store_unavailable"
        case storesFixedInCluster = "stores_fixed_in_cluster"
        case tooManyConnections = "too_many_connections"
        case shuttingDown = "shutting_down"
    }
}
