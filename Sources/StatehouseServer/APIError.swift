/// An error answer of the API: an HTTP status and the JSON body
/// `{"error":{"code":"snake_case","message":"…"}}`; on WebSocket, the same code and message in an `error` message.
///
/// Every code is listed in docs/protocol.md.
public struct APIError: Error, Sendable, Equatable {
    /// HTTP status (RFC 9110 §15).
    public var status: Int
    /// Stable snake_case code clients can switch on.
    public var code: String
    /// One sentence saying what was wrong and what to do.
    public var message: String
    /// Extra response fields, e.g. `Allow` for 405.
    public var fields: [Field]

    /// A response field (name, value).
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    public init(status: Int, code: String, message: String, fields: [Field] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields
    }

    /// The JSON body, e.g. `{"error":{"code":"not_found","message":"…"}}`.
    public var body: [UInt8] {
        Array("{\"error\":{\"code\":\(JSONText.quoted(code)),\"message\":\(JSONText.quoted(message))}}".utf8)
    }

    static func storeNotFound(_ name: String) -> APIError {
        APIError(
            status: 404, code: "store_not_found",
            message: "No store is named \(JSONText.quoted(name)); GET /stores lists the stores.")
    }

    static func notFound(_ path: String) -> APIError {
        APIError(
            status: 404, code: "not_found",
            message: "Nothing is at \(JSONText.quoted(path)); the API is under /stores (see GET /stores) and /healthz.")
    }

    static func methodNotAllowed(_ method: String, allow: [String]) -> APIError {
        APIError(
            status: 405, code: "method_not_allowed",
            message: "\(method) is not allowed here; use \(allow.joined(separator: " or ")).",
            fields: [Field(name: "Allow", value: allow.joined(separator: ", "))])
    }

    static func invalidJSON(_ detail: String) -> APIError {
        APIError(
            status: 400, code: "invalid_json",
            message: "The body is not valid JSON (\(detail)); send one action object such as {\"type\":\"increment\"}.")
    }
}
