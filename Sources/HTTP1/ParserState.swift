/// Everything an ``HTTPRequestParser`` changes while llhttp runs: the request in progress, the events completed
/// by the current feed, and the flags the connection reads.
///
/// It lives at a fixed heap address that llhttp's `data` field points to, so the llhttp callbacks reach it
/// without retaining the parser object, and writes to it need no dynamic exclusivity checks.
///
/// ## Thread safety
/// Confined to the thread of the parser that owns it.
struct ParserState: ~Copyable {
    /// The limits every request is checked against.
    let limits: HTTPParserLimits
    /// The request in progress.
    var message = RequestAccumulator()
    /// Events completed during the current `feed`, in order: the caller's array, lent for the call (empty between
    /// calls).
    var completed: [HTTPParseEvent] = []
    /// How many events the previous `feed(_:)` completed: the capacity its next list starts with.
    var expectedEventCount = 1
    /// The failure a callback recorded before telling llhttp to stop.
    var pendingFailure: HTTPParseFailure?
    /// The upgrade request completed by the current `feed` (llhttp then returns `HPE_PAUSED_UPGRADE`).
    var pendingUpgrade: HTTPRequest?
    /// True once any byte of a not-yet-complete request has been seen; false again when it completes.
    var isMidMessage = false
    /// True between the end of a request's head and the end of its body.
    var areHeadersComplete = false

    init(limits: HTTPParserLimits) {
        self.limits = limits
    }

    /// Queues an event for the current feed.
    mutating func complete(_ event: consuming HTTPParseEvent) {
        if completed.capacity == 0 { completed.reserveCapacity(expectedEventCount) }
        completed.append(event)
    }

    /// Remembers how many events a `feed(_:)` returned, so the next one reserves that much room at once.
    mutating func noteEventCount(_ count: Int) {
        if count > 0 { expectedEventCount = min(count, 64) }
    }
}
