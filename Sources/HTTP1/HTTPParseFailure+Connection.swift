/// Refusals of the connection rules (``HTTPServerConnection``), beside those of the parser.
extension HTTPParseFailure {
    /// 400 `invalid_host` for a request without exactly one `Host` field (RFC 9112 §3.2).
    public static let invalidHost = HTTPParseFailure(
        status: 400, code: "invalid_host",
        message: "An HTTP/1.1 request needs exactly one Host header field (RFC 9112 §3.2); add Host: <host>:<port>.")

    /// 408 `request_timeout` for a head or body that did not arrive within its timeout; `what` names the part, e.g.
    /// `"header fields"` or `"body"` (RFC 9110 §15.5.9).
    public static func requestTimeout(_ what: String) -> HTTPParseFailure {
        HTTPParseFailure(
            status: 408, code: "request_timeout",
            message: "The request's \(what) did not arrive in time; send the whole request promptly.")
    }

    /// Every code a parse failure or connection refusal can carry, for documentation checks.
    public static let allCodes: [String] = [
        "bad_request", "payload_too_large", "header_fields_too_large", "expectation_failed",
        "transfer_coding_not_implemented", "http_version_not_supported", "invalid_host", "request_timeout",
    ]
}
