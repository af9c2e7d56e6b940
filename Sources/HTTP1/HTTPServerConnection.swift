/// The rules of one server-side HTTP/1.1 connection as a pure value: which request is answered next, whether the
/// connection stays open after a response, when to send `100 Continue`, when to stop reading, which timeout runs, and
/// when to close or hand the connection to another protocol. No I/O, no timers, no knowledge of what the requests
/// mean: the owner feeds it events and performs the actions it returns (swift-nio's `HTTPServerPipelineHandler` plays
/// the same part).
///
/// Events: ``received(_:parser:)`` (bytes, parsed by the connection's ``HTTPRequestParser``) or
/// ``received(_:position:)`` (one parsed event), ``responseStarted(keepAlive:)``, ``handedOff()``,
/// ``writesPaused()`` / ``writesResumed()``, ``timerFired(_:)``, ``inputEnded(_:)`` and ``shutDown()``. After each,
/// the owner calls ``nextAction()`` until it returns nil and performs each ``Action`` in order; an action may lead to
/// further events (a delivered request is answered at once, say), after which the owner keeps calling
/// ``nextAction()``.
///
/// The rules:
/// - **One response at a time, in order** (RFC 9112 §9.3.2): pipelined requests are queued as they are parsed and
///   delivered one by one, each after the response to the one before has started. Reading pauses while
///   ``Configuration/maxQueuedRequests`` or more wait, and while the owner's writes are paused (backpressure), and
///   resumes once the connection is idle with fewer queued.
/// - **Keep-alive** (RFC 9112 §9.3, §9.6): a response keeps the connection open only when its request allowed it
///   (``HTTPRequest/keepAlive``: HTTP/1.1 without `Connection: close`, HTTP/1.0 with `Connection: keep-alive`), the
///   server is not shutting down, and the peer has not ended its side with nothing left to answer.
/// - **100-continue** (RFC 9110 §10.1.1): `100 Continue` is sent for a request whose head asks for it when nothing is
///   queued or being answered before it (else a response would overtake an earlier one; the client sends its body
///   anyway after a while).
/// - **Host** (RFC 9112 §3.2): an HTTP/1.1 request needs exactly one `Host` field, an HTTP/1.0 request at most one;
///   otherwise 400 `invalid_host` and close.
/// - **Unparsable requests**: the parser's failure (400, 413, 431, 501, 505) is answered and the connection closed.
/// - **Timeouts**: ``Timeout/idle`` while waiting for the next request (from the last response, or from the start),
///   ``Timeout/head`` while a head is incomplete, ``Timeout/body`` while a body is incomplete; none while a request is
///   queued or answered. Idle closes; head and body are answered with 408 `request_timeout` and close.
/// - **Upgrade** (RFC 9110 §7.8): an upgrade request is delivered with the bytes after it; the owner either hands the
///   connection off (``handedOff()``) or answers it as plain HTTP, which closes the connection.
///
/// Lifecycle:
///
///     ┌──────┐  deliver / upgrade / refuse   ┌────────────┐
///     │ idle │ ─────────────────────────────▶ │ responding │
///     │      │ ◀───────────────────────────── │            │
///     └──────┘  responseStarted (keep-alive)  └────────────┘
///        │  idle timeout, EOF, shutdown          │       │ handedOff()
///        ▼                                        │       ▼
///     ┌─────────┐ ◀── responseStarted (close) ───┘  ┌───────────┐
///     │ closing │                                    │ handedOff │
///     └─────────┘                                    └───────────┘
///
/// `closing` and `handedOff` are final: later events are ignored and produce no actions.
///
/// ## Thread safety
/// A value; the connection that owns it uses it on its event-loop thread only.
public struct HTTPServerConnection {
    /// Where the connection is in its lifecycle (see the diagram above).
    public enum State: Sendable, Equatable {
        /// Waiting for the next request to deliver (none queued, or writes are paused).
        case idle
        /// A request was delivered (or refused); its response has not started yet.
        case responding
        /// The connection closes: after the last response, at once, or when the peer's input ended.
        case closing
        /// The connection belongs to another protocol now (WebSocket, a server-sent event stream).
        case handedOff
    }

    /// The timeout that runs: what the connection waits for.
    public enum Timeout: Sendable, Equatable, CaseIterable {
        /// The next request, after a response (or since the connection opened).
        case idle
        /// The rest of a request's head (start line and fields).
        case head
        /// The rest of a request's body.
        case body
    }

    /// How to close.
    public enum CloseMode: Sendable, Equatable {
        /// At once, abandoning unsent bytes (idle timeout, shutdown of an idle connection).
        case immediately
        /// The peer ended its input and every request is answered: close as soon as the unsent bytes are sent (at
        /// once when there are none).
        case whenWritten
    }

    /// What the owner does next.
    public enum Action: Sendable, Equatable {
        /// Write ``HTTPServerConnection/continueBytes`` (`HTTP/1.1 100 Continue`).
        case sendContinue
        /// Answer this request, then call ``responseStarted(keepAlive:)``. No timeout runs until then (as after
        /// ``cancelTimer``: the delivering actions stop the running one).
        case deliver(HTTPRequest)
        /// Complete the protocol switch of this request (leftover: the bytes after it, which belong to the new
        /// protocol) and call ``handedOff()``, or answer it as plain HTTP (the connection then closes). Stops the
        /// running timeout, as ``deliver(_:)`` does.
        case upgrade(HTTPRequest, leftover: [UInt8])
        /// Answer with this error and close: call ``responseStarted(keepAlive:)`` (which answers `false`) when the
        /// answer is written. `headOnly`: the request was `HEAD` (no body, RFC 9110 §9.3.2). Stops the running
        /// timeout, as ``deliver(_:)`` does.
        case refuse(HTTPParseFailure, headOnly: Bool)
        /// Stop reading from the socket (backpressure).
        case pauseReading
        /// Read from the socket again.
        case resumeReading
        /// Run this timeout for `milliseconds` from now (replacing any other), then call ``timerFired(_:)``.
        case armTimer(Timeout, milliseconds: Int)
        /// No timeout runs now (a timer that fires anyway is ignored by ``timerFired(_:)``).
        case cancelTimer
        /// Close the connection.
        case close(CloseMode)
    }

    /// The limits and timeouts of a connection.
    public struct Configuration: Sendable, Equatable {
        /// Parsed requests that may wait before reading pauses.
        public var maxQueuedRequests: Int
        /// ``Timeout/idle``, ms.
        public var idleTimeoutMs: Int
        /// ``Timeout/head``, ms.
        public var headTimeoutMs: Int
        /// ``Timeout/body``, ms.
        public var bodyTimeoutMs: Int

        public init(maxQueuedRequests: Int = 16, idleTimeoutMs: Int, headTimeoutMs: Int, bodyTimeoutMs: Int) {
            self.maxQueuedRequests = maxQueuedRequests
            self.idleTimeoutMs = idleTimeoutMs
            self.headTimeoutMs = headTimeoutMs
            self.bodyTimeoutMs = bodyTimeoutMs
        }

        /// The duration of `timeout`, ms.
        public func milliseconds(_ timeout: Timeout) -> Int {
            switch timeout {
            case .idle: idleTimeoutMs
            case .head: headTimeoutMs
            case .body: bodyTimeoutMs
            }
        }
    }

    /// Where the parser is in the input: between messages, in a head, or in a body (which decides the timeout).
    public enum InputPosition: Sendable, Equatable {
        case betweenMessages
        case inHead
        case inBody

        /// The position of `parser` now.
        public init(_ parser: HTTPRequestParser) {
            self = parser.isMidMessage ? (parser.areHeadersComplete ? .inBody : .inHead) : .betweenMessages
        }
    }

    /// The interim response that asks the client for its body (RFC 9110 §15.2.1).
    public static let continueBytes: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    public let configuration: Configuration
    /// Where the connection is in its lifecycle.
    @inlinable public var state: State { _state }
    @usableFromInline var _state: State = .idle
    /// Parsed events not yet delivered: those from `queueStart` on (moved out one by one without shifting).
    @usableFromInline var queue: [HTTPParseEvent] = []
    @usableFromInline var queueStart = 0
    /// Where the parser was after the last bytes.
    @inlinable public var position: InputPosition { _position }
    @usableFromInline var _position: InputPosition = .betweenMessages
    /// `100 Continue` responses owed, sent before anything else.
    @usableFromInline var continuesOwed = 0
    /// A refusal not taken from the queue (a timeout), delivered next.
    @usableFromInline var pendingRefusal: HTTPParseFailure?
    /// A close decided by an event, returned next.
    @usableFromInline var pendingClose: CloseMode?
    /// The current response must close the connection (the request was refused).
    @usableFromInline var closesAfterResponse = false
    /// The peer ended its side (EOF).
    @inlinable public var isInputClosed: Bool { _isInputClosed }
    @usableFromInline var _isInputClosed: Bool = false
    /// The server is shutting down: no response keeps the connection open.
    @inlinable public var isShuttingDown: Bool { _isShuttingDown }
    @usableFromInline var _isShuttingDown: Bool = false
    /// The owner's writes are paused (too many unsent bytes).
    @inlinable public var isWritePaused: Bool { _isWritePaused }
    @usableFromInline var _isWritePaused: Bool = false
    /// Whether the last reading action was ``Action/pauseReading``.
    @inlinable public var isReadingPaused: Bool { _isReadingPaused }
    @usableFromInline var _isReadingPaused: Bool = false
    /// The timeout running now (nil: none).
    @inlinable public var timer: Timeout? { _timer }
    @usableFromInline var _timer: Timeout?
    /// A response was started since the timer was last decided: the idle time starts again.
    @usableFromInline var responsesSinceTimer = 0

    /// A connection that has just opened: idle, reading, its idle timeout not yet armed (the first
    /// ``nextAction()`` arms it).
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Requests (and failures) parsed and not yet delivered.
    @inlinable public var queuedCount: Int { queue.count - queueStart }
}
