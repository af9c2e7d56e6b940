/// Why a request could not be parsed, with the response status that reports it.
///
/// | status | code | cause |
/// |---|---|---|
/// | 400 | `bad_request` | llhttp rejected the bytes (RFC 9112 syntax), or the peer closed mid-request |
/// | 413 | `payload_too_large` | body over ``HTTPParserLimits/maxBodyBytes`` (RFC 9110 §15.5.14) |
/// | 431 | `header_fields_too_large` | head over ``HTTPParserLimits/maxHeaderBytes`` (RFC 6585 §5) |
/// | 501 | `transfer_coding_not_implemented` | a transfer coding other than `chunked` (RFC 9112 §6.1) |
/// | 505 | `http_version_not_supported` | major version other than 1 (RFC 9110 §15.6.6) |
public struct HTTPParseFailure: Error, Sendable, Equatable {
    /// The response status code: 400, 413, 417, 431, 501 or 505.
    public var status: Int
    /// A stable machine-readable code, e.g. `"bad_request"`.
    public var code: String
    /// One sentence for people: what was wrong (llhttp's reason for 400s) and what to do.
    public var message: String

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - status: The response status code.
    ///   - code: The machine-readable code.
    ///   - message: The human-readable sentence.
    public init(status: Int, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }
}

extension HTTPParseFailure {
    /// 400 for bytes llhttp rejected; `reason` is llhttp's text, e.g. `"Invalid header value char"`.
    static func badRequest(reason: String) -> HTTPParseFailure {
        HTTPParseFailure(
            status: 400, code: "bad_request",
            message: "The request is not valid HTTP/1.1 (\(reason)); fix the request syntax and send it again.")
    }

    /// 400 for a connection closed before the request was complete.
    static let truncated = HTTPParseFailure(
        status: 400, code: "bad_request",
        message: "The connection closed in the middle of a request; send the complete request.")

    /// 413 for a declared `Content-Length` over the limit.
    static func declaredBodyTooLarge(length: UInt64, limit: Int) -> HTTPParseFailure {
        HTTPParseFailure(
            status: 413, code: "payload_too_large",
            message: "The declared body of \(length) bytes exceeds the limit of \(limit) bytes; send a smaller body.")
    }

    /// 413 for a chunked body that grew over the limit.
    static func chunkedBodyTooLarge(limit: Int) -> HTTPParseFailure {
        HTTPParseFailure(
            status: 413, code: "payload_too_large",
            message: "The chunked body exceeds the limit of \(limit) bytes; send a smaller body.")
    }

    /// 431 for a request line plus fields over the limit.
    static func tooManyFields(limit: Int) -> HTTPParseFailure {
        HTTPParseFailure(
            status: 431, code: "header_fields_too_large",
            message: "The request has more than \(limit) header fields; send fewer fields.")
    }

    static func expectationFailed(_ value: String) -> HTTPParseFailure {
        HTTPParseFailure(
            status: 417, code: "expectation_failed",
            message: "Expect: \(value) is not supported; only 100-continue is (RFC 9110 §10.1.1).")
    }

    static func headerTooLarge(limit: Int) -> HTTPParseFailure {
        HTTPParseFailure(
            status: 431, code: "header_fields_too_large",
            message: "The request line and header fields exceed the limit of \(limit) bytes; "
                + "send fewer or shorter fields.")
    }

    /// 501 for a transfer coding this server does not implement (RFC 9112 §6.1: only `chunked` is); the connection
    /// closes after it, since the body's framing cannot be trusted.
    static func transferCodingNotImplemented(_ coding: String) -> HTTPParseFailure {
        HTTPParseFailure(
            status: 501, code: "transfer_coding_not_implemented",
            message: "The transfer coding \"\(coding.prefix(64))\" is not implemented; send the body with "
                + "Transfer-Encoding: chunked alone (put any content coding in Content-Encoding).")
    }

    /// 505 for a version other than HTTP/1.x; `version` is the text after `HTTP/`, e.g. `"2.0"`.
    static func versionNotSupported(_ version: String) -> HTTPParseFailure {
        HTTPParseFailure(
            status: 505, code: "http_version_not_supported",
            message: "HTTP/\(version) is not supported; send the request as HTTP/1.1.")
    }
}
