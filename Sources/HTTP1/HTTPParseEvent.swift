/// What ``HTTPRequestParser/feed(_:)`` reports, one per completed request or failure, in input order.
public enum HTTPParseEvent: Sendable, Equatable {
    /// The head of a request with `Expect: 100-continue` (RFC 9110 §10.1.1) is complete and its body is not: the
    /// server may send `100 Continue` now to have the client send the body. Its `.request` event follows later.
    case continueExpected
    /// A complete request; more may follow on the same connection if ``HTTPRequest/keepAlive`` is true.
    case request(HTTPRequest)
    /// A complete request asking to switch protocols (RFC 9110 §7.8). `leftover` holds the bytes of this feed
    /// after the request; they (and all later bytes) belong to the new protocol, e.g. early WebSocket frames.
    /// The parser is done afterwards.
    case upgrade(HTTPRequest, leftover: [UInt8])
    /// The request is unusable; answer with ``HTTPParseFailure/status`` and close. The parser is done afterwards.
    case failure(HTTPParseFailure)
}
