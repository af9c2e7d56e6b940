import HTTP1

/// Builders for the API's HTTP responses (always JSON, always with Content-Length).
enum Responses {
    static let jsonType = HTTPField(name: "Content-Type", value: "application/json")
    /// `[jsonType]`, built once: most responses have no other field, and share it.
    private static let jsonTypeOnly = [jsonType]

    static func json(_ status: Int, _ body: [UInt8], fields: [HTTPField] = []) -> HTTPResponse {
        HTTPResponse(status: status, fields: fields.isEmpty ? jsonTypeOnly : [jsonType] + fields, body: body)
    }

    static func error(_ error: APIError) -> HTTPResponse {
        json(error.status, error.body, fields: error.fields.map { HTTPField(name: $0.name, value: $0.value) })
    }
}
