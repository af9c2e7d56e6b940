import HTTP1

/// Builders for the API's HTTP responses (always JSON, always with Content-Length).
enum Responses {
    static let jsonType = HTTPField(name: "Content-Type", value: "application/json")

    static func json(_ status: Int, _ body: [UInt8], fields: [HTTPField] = []) -> HTTPResponse {
        HTTPResponse(status: status, fields: [jsonType] + fields, body: body)
    }

    static func error(_ error: APIError) -> HTTPResponse {
        json(error.status, error.body, fields: error.fields.map { HTTPField(name: $0.name, value: $0.value) })
    }
}
