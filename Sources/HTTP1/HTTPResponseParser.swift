private import CLLHTTP

/// Incremental parser for the one response a client waits for (e.g. the answer to a WebSocket opening handshake,
/// RFC 6455 §4.1): llhttp in `HTTP_RESPONSE` mode, strict (no lenient flags), with the request parser's size limits.
///
/// Feed it the bytes read from the connection until it returns a result; it is done afterwards (later input returns
/// nil). Interim 1xx responses other than 101 are skipped (RFC 9110 §15.2). A `101 Switching Protocols` ends at its
/// head: the bytes after it are handed back as `leftover`. Any other response is read with its body, which may not
/// exceed ``HTTPParserLimits/maxBodyBytes`` (checked against `Content-Length` before any body byte, and as chunks
/// arrive); the head may not exceed ``HTTPParserLimits/maxHeaderBytes`` (status line and field bytes, as for
/// requests) nor ``HTTPParserLimits/maxHeaderFields`` lines. A body delimited by the end of the connection completes
/// at ``finish()``.
///
/// Lifecycle: `reading` ──result──▶ `done` (``isDone``); ``finish()`` also ends it.
///
/// ## Thread safety
/// Not thread-safe; owned by one connection and used on its event-loop thread.
public final class HTTPResponseParser {
    /// llhttp's state, at a stable heap address.
    private let parser: UnsafeMutablePointer<llhttp_t>
    /// The response in progress; llhttp's `data` points to it (unretained: this parser owns it).
    private let accumulator: ResponseAccumulator
    /// Whether a result was returned (or ``finish()`` called): later input is ignored.
    public private(set) var isDone = false

    /// Creates a parser for one response.
    /// - Parameter limits: head and body limits in bytes (default: 16 KiB of head, 64 KiB of body, 100 fields).
    public init(limits: HTTPParserLimits = HTTPParserLimits(maxHeaderBytes: 16 << 10, maxBodyBytes: 64 << 10)) {
        accumulator = ResponseAccumulator(limits: limits)
        parser = UnsafeMutablePointer<llhttp_t>.allocate(capacity: 1)
        llhttp_init(parser, HTTP_RESPONSE, responseParserSettings.assumingMemoryBound(to: llhttp_settings_t.self))
        parser.pointee.data = Unmanaged.passUnretained(accumulator).toOpaque()
    }

    deinit { parser.deallocate() }

    /// Parses the next bytes of the connection.
    /// - Parameter bytes: bytes as received; they need to stay valid only for the call.
    /// - Returns: the result once these bytes complete it (the parser is done then), else nil.
    public func feed(_ bytes: UnsafeRawBufferPointer) -> HTTPResponseParseResult? {
        guard !isDone, let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        let start = base.assumingMemoryBound(to: CChar.self)
        let status = llhttp_execute(parser, start, bytes.count)
        switch status {
        case HPE_OK:
            return nil
        case HPE_PAUSED_UPGRADE:
            isDone = true
            guard let head = accumulator.head, head.status == 101 else {
                return .failure(accumulator.failure ?? .incomplete)
            }
            let consumed = llhttp_get_error_pos(parser).map { $0 - start } ?? bytes.count
            return .switchingProtocols(head, leftover: Array(bytes[consumed...]))
        case HPE_PAUSED:
            isDone = true
            guard let head = accumulator.head else { return .failure(accumulator.failure ?? .incomplete) }
            return .response(head, body: accumulator.body)
        default:
            isDone = true
            return .failure(failure(for: status))
        }
    }

    /// Reports that the peer closed the connection: completes a body delimited by the close (RFC 9112 §6.3), or
    /// fails (the response was incomplete, or nothing came). Nil when the parser was done already.
    public func finish() -> HTTPResponseParseResult? {
        guard !isDone else { return nil }
        isDone = true
        let status = llhttp_finish(parser)
        if status == HPE_OK || status == HPE_PAUSED, accumulator.isComplete, let head = accumulator.head {
            return .response(head, body: accumulator.body)
        }
        return .failure(accumulator.failure ?? .incomplete)  // llhttp's own word for it is "Invalid EOF state"
    }

    /// The error a callback recorded, or llhttp's reason.
    private func failure(for status: llhttp_errno_t) -> HTTPResponseParseError {
        if let failure = accumulator.failure { return failure }
        let reason = llhttp_get_error_reason(parser).map { String(cString: $0) }
        return HTTPResponseParseError(
            message: "The response is not valid HTTP/1.1 (\(reason ?? String(cString: llhttp_errno_name(status)))).")
    }
}

extension HTTPResponseParseError {
    /// The connection ended before a complete response.
    static let incomplete = HTTPResponseParseError(
        message: "The connection ended before a complete HTTP response arrived.")
}
