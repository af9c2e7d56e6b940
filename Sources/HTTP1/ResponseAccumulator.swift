/// The response being parsed by an ``HTTPResponseParser``, gathered across llhttp callbacks (spans may arrive in
/// pieces when they straddle two feeds, so each is appended and a field is committed at value-complete).
///
/// ## Thread safety
/// Confined to the thread of the parser that owns it.
final class ResponseAccumulator {
    /// What a callback tells llhttp to do next.
    enum Verdict {
        /// Keep parsing.
        case proceed
        /// At headers-complete: a 101, no body; llhttp returns `HPE_PAUSED_UPGRADE`.
        case upgrade
        /// Stop without error: the final response is complete.
        case pause
        /// Stop with an error (recorded in ``failure``).
        case fail
    }

    /// Which head span a piece of llhttp data belongs to.
    enum Span { case reason, fieldName, fieldValue }

    let limits: HTTPParserLimits
    private var reason = SpanBuffer()
    private var fieldName = SpanBuffer()
    private var fieldValue = SpanBuffer()
    private var fields = HTTPFields()
    private var headBytes = 0
    /// The head of the response in progress, from headers-complete on.
    private(set) var head: HTTPResponseHead?
    /// The body so far.
    private(set) var body: [UInt8] = []
    /// Whether the final response is complete.
    private(set) var isComplete = false
    /// Why parsing stopped, when a callback stopped it.
    private(set) var failure: HTTPResponseParseError?

    init(limits: HTTPParserLimits) { self.limits = limits }

    /// A response starts (the first, or the final one after an interim 1xx): forget the previous one.
    func messageBegan() -> Verdict {
        reason.removeAll()
        fieldName.removeAll()
        fieldValue.removeAll()
        fields = HTTPFields()
        headBytes = 0
        head = nil
        body = []
        return .proceed
    }

    /// A piece of the reason phrase or of a field, counted against the head limit.
    func headData(_ kind: Span, _ bytes: UnsafeBufferPointer<UInt8>) -> Verdict {
        headBytes += bytes.count
        guard headBytes <= limits.maxHeaderBytes else {
            return fail("The response head exceeds the limit of \(limits.maxHeaderBytes) bytes.")
        }
        switch kind {
        case .reason: reason.append(bytes)
        case .fieldName: fieldName.append(bytes)
        case .fieldValue: fieldValue.append(bytes)
        }
        return .proceed
    }

    /// A field line is complete (trailers after a chunked body are dropped).
    func fieldComplete() -> Verdict {
        if head == nil {
            let value = UnsafeBufferPointer(rebasing: trimmingOWS(fieldValue.bytes))
            fields.append(HTTPField(name: fieldName.string(), value: String(decoding: value, as: UTF8.self)))
            guard fields.count <= limits.maxHeaderFields else {
                return fail("The response has more than \(limits.maxHeaderFields) header fields.")
            }
        }
        fieldName.removeAll()
        fieldValue.removeAll()
        return .proceed
    }

    /// The head is complete: a 101 ends here; a status below 100, or a declared body over the limit, fails before the
    /// body is read.
    func headersComplete(status: Int, versionMajor: Int, versionMinor: Int, contentLength: UInt64) -> Verdict {
        guard versionMajor == 1 else { return fail("The response is HTTP/\(versionMajor).\(versionMinor), not HTTP/1.x.") }
        // llhttp takes any three digits; one below 100 ("051") names no class (RFC 9110 §15).
        guard (100...999).contains(status) else {
            return fail("The response's status \(status) is not a status code from 100 to 999 (RFC 9110 §15).")
        }
        head = HTTPResponseHead(
            status: status, reason: reason.string(), versionMajor: versionMajor, versionMinor: versionMinor,
            fields: fields)
        if status == 101 { return .upgrade }
        guard contentLength <= UInt64(max(limits.maxBodyBytes, 0)) else {
            return fail("The response declares a body of \(contentLength) bytes, over the limit of \(limits.maxBodyBytes) bytes.")
        }
        return .proceed
    }

    /// A piece of the (de-chunked) body.
    func bodyData(_ bytes: UnsafeBufferPointer<UInt8>) -> Verdict {
        guard body.count + bytes.count <= limits.maxBodyBytes else {
            return fail("The response body exceeds the limit of \(limits.maxBodyBytes) bytes.")
        }
        body.append(contentsOf: bytes)
        return .proceed
    }

    /// A response is complete: an interim 1xx is skipped, a final one stops the parser (a 101 is stopped by llhttp
    /// itself, with `HPE_PAUSED_UPGRADE`).
    func messageComplete() -> Verdict {
        if let status = head?.status, (100...199).contains(status) {
            if status == 101 { isComplete = true }
            return .proceed
        }
        isComplete = true
        return .pause
    }

    private func fail(_ message: String) -> Verdict {
        failure = HTTPResponseParseError(message: message)
        return .fail
    }
}
