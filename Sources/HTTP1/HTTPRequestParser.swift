private import CLLHTTP

/// Incremental HTTP/1.x request parser: llhttp in strict mode (no lenient flags), plus size limits
/// (RFC 9112).
///
/// Feed it whatever bytes arrived on a connection; it returns the requests they complete, in order, and
/// keeps partial state between calls. Spans split across feeds (target, field names and values, body) are
/// accumulated, so every split of the same input gives the same events, with one exception: a request that is both
/// malformed and over a size limit fails with 400 for some splits and with 413 or 431 for others. llhttp reports a
/// span only when it ends or the feed ends, and the limits are checked on reported bytes, so where a feed ends
/// decides whether the limit is seen before the syntax error. Either way the request fails and the parser is done.
///
/// The parser is finished after an ``HTTPParseEvent/upgrade(_:leftover:)`` or
/// ``HTTPParseEvent/failure(_:)`` event, after a request whose ``HTTPRequest/keepAlive`` is false (the
/// connection carries nothing more; RFC 9112 §9.6), and after ``finish()``. A finished parser ignores
/// input and returns `[]`.
///
/// ## Thread safety
/// Not thread-safe; owned by one connection and used on its event-loop thread.
public final class HTTPRequestParser {
    /// llhttp's state, at a stable heap address (llhttp keeps pointers into the Swift callbacks' context).
    private let parser: UnsafeMutablePointer<llhttp_t>
    /// The request in progress, completed events and flags, at a stable heap address llhttp's `data` points to.
    private let state: UnsafeMutablePointer<ParserState>
    /// Whether the parser has stopped for good.
    /// Confined to the owner's thread (see Thread safety). A plain `var`: the compiler proves its accesses never
    /// overlap, so it has no run-time check to skip (issue 14, callgrind: none in `feed` either way).
    private var isDone = false

    /// True once any byte of a not-yet-complete request has been seen (blank lines between requests
    /// do not count); false again when it completes.
    public var isMidMessage: Bool { state.pointee.isMidMessage }
    /// True between the end of a request's head and the end of its body (for body timeouts).
    public var areHeadersComplete: Bool { state.pointee.areHeadersComplete }

    /// Creates a parser for one connection.
    ///
    /// - Parameter limits: The head and body size limits, in bytes.
    public init(limits: HTTPParserLimits) {
        state = UnsafeMutablePointer<ParserState>.allocate(capacity: 1)
        state.initialize(to: ParserState(limits: limits))
        parser = UnsafeMutablePointer<llhttp_t>.allocate(capacity: 1)
        llhttp_init(parser, HTTP_REQUEST, requestParserSettings.assumingMemoryBound(to: llhttp_settings_t.self))
        parser.pointee.data = UnsafeMutableRawPointer(state)
    }

    deinit {
        parser.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Parses the next bytes of the connection.
    ///
    /// - Parameter bytes: Bytes as received; they need to stay valid only for the call.
    /// - Returns: Events completed by these bytes, in order (several for pipelined requests). After
    ///   `.upgrade` or `.failure` the parser is done: later input returns `[]`.
    public func feed(_ bytes: UnsafeRawBufferPointer) -> [HTTPParseEvent] {
        var events: [HTTPParseEvent] = []
        feed(bytes, appendingTo: &events)
        state.pointee.noteEventCount(events.count)
        return events
    }

    /// Parses the next bytes of the connection and appends the events they complete to `events`, which keeps its
    /// earlier elements (and its storage: a queue reused from feed to feed costs no allocation).
    ///
    /// - Parameters:
    ///   - bytes: Bytes as received; they need to stay valid only for the call.
    ///   - events: Gets the events ``feed(_:)`` would return, in the same order, after its existing elements.
    public func feed(_ bytes: UnsafeRawBufferPointer, appendingTo events: inout [HTTPParseEvent]) {
        guard !isDone, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let start = base.assumingMemoryBound(to: CChar.self)
        // The callbacks append to the caller's array, lent to the state for the call.
        swap(&events, &state.pointee.completed)
        let status = llhttp_execute(parser, start, bytes.count)
        swap(&events, &state.pointee.completed)
        if status == HPE_OK { return }
        isDone = true
        if status == HPE_PAUSED_UPGRADE, let request = state.pointee.pendingUpgrade {
            let consumed = llhttp_get_error_pos(parser).map { $0 - start } ?? bytes.count
            events.append(.upgrade(request, leftover: Array(bytes[consumed...])))
        } else if status != HPE_PAUSED {
            events.append(.failure(failure(for: status)))
        }
    }

    /// Reports that the peer closed its side of the connection.
    ///
    /// - Returns: A `.failure` (400) if a request was partly received, else `[]`. The parser is done afterwards.
    public func finish() -> [HTTPParseEvent] {
        guard !isDone else { return [] }
        isDone = true
        return state.pointee.isMidMessage ? [.failure(.truncated)] : []
    }

    /// The failure for an llhttp error: the one a callback recorded, 505 for a version llhttp rejected
    /// whose major is not 1, or 400 with llhttp's reason.
    private func failure(for status: llhttp_errno_t) -> HTTPParseFailure {
        if let pendingFailure = state.pointee.pendingFailure { return pendingFailure }
        if status == HPE_INVALID_VERSION, let major = state.pointee.message.version.first,
            major != UInt8(ascii: "1"), major &- UInt8(ascii: "0") < 10
        {
            return .versionNotSupported(state.pointee.message.version.string())
        }
        let reason = llhttp_get_error_reason(parser).map { String(cString: $0) }
        return .badRequest(reason: reason ?? String(cString: llhttp_errno_name(status)))
    }
}
