public import UVLoop
import HTTP1
import WebSocket

/// One client WebSocket to a Statehouse server: the TCP connect (``TCPConnection/connect(on:host:port:completion:)``),
/// the opening handshake (RFC 6455 §4.1, ``WebSocketClientHandshake``, the answer read by ``HTTPResponseParser``), then
/// messages through ``WebSocketConnection`` in the client role (masking, closing handshake, liveness), the same
/// machine the server runs. No Foundation networking.
///
/// Lifecycle (``Phase``):
/// ```
/// idle ──start()──▶ connecting ──TCP up: send the request──▶ handshaking ──valid 101──▶ open (onOpen)
///                     │                                        │                        │
///                     │                                        ├─non-101: .refused──────┤
///                     │                                        └─bad answer: .failed ───┤
///                     │                          close() / server's Close / failure ────▶ closing ──TCP closed──▶ closed
///                     └──refused, unresolvable, connect timeout, abort(): .failed ──────────────────────────────▶ closed
/// ```
/// `connectTimeoutMs` covers connecting and handshaking together. ``onEnd`` is called exactly once, when the client is
/// `closed` (after TCP has closed), never from inside a call the app made (``start()``, ``close(code:reason:)``,
/// ``abort()``). The ending is decided when the end begins: the server's Close (code and reason) or, without one, why
/// the connection failed; ``abort()`` ends with `.failed("aborted")` unless the ending was decided already.
///
/// ## Thread safety
/// Loop-confined: create it and call everything on its loop's thread (through ``EventLoop/execute(_:)``); its
/// callbacks run there. `@unchecked Sendable` only so a reference can be carried into loop jobs.
public final class WebSocketClient: @unchecked Sendable {
    /// The loop everything runs on.
    public let loop: EventLoop
    /// The server.
    public let endpoint: ServerEndpoint
    /// The request-target: `endpoint.basePath + path`.
    public let requestPath: String
    let requestFields: [(name: String, value: String)]
    /// The settings given at creation.
    public let configuration: Configuration

    var phase = Phase.idle
    var connector: TCPConnector?
    var connection: TCPConnection?
    var handshake: WebSocketClientHandshake?
    var responseParser: HTTPResponseParser?
    /// The RFC 6455 rules (client role), from the 101 on.
    var machine: WebSocketConnection
    /// The ending, once decided (reported by ``onEnd`` when TCP has closed).
    var ending: Ending?
    var connectTimer: LoopTimer?
    var keepAliveTimer: LoopTimer?
    var closeTimer: LoopTimer?
    /// Whether TCP was closed at once (abort, a failed handshake, the machine's close-now): nothing more is read.
    var isDropped = false
    /// The socket error that ended TCP, when it was not a plain EOF (for the ending's sentence).
    var transportError: UVError?

    /// Called once the handshake succeeded (the client is `open`).
    public var onOpen: (() -> Void)?
    /// One whole text message from the server (UTF-8, checked). A binary message fails the connection with 1003.
    public var onText: (([UInt8]) -> Void)?
    /// Called exactly once, when the client is `closed` (see ``Ending``).
    public var onEnd: ((Ending) -> Void)?

    /// Makes an idle client; nothing happens until ``start()``.
    /// - Parameters:
    ///   - loop: the loop to run on (call on its thread).
    ///   - endpoint: the server.
    ///   - path: the request path under `endpoint.basePath`, e.g. `/ws` (starts with `/`; may carry a query).
    ///   - requestFields: extra handshake fields, e.g. `Authorization: Bearer …` or `Origin` (not the handshake's own).
    ///   - configuration: timeouts and limits.
    public init(
        loop: EventLoop, endpoint: ServerEndpoint, path: String, requestFields: [(name: String, value: String)] = [],
        configuration: Configuration = .init()
    ) {
        loop.assertInLoop()
        self.loop = loop
        self.endpoint = endpoint
        requestPath = endpoint.basePath + path
        self.requestFields = requestFields
        self.configuration = configuration
        let liveness = configuration.pingIntervalMs.map {
            WebSocketConnection.Liveness(pingIntervalMs: $0, pongTimeoutMs: configuration.pongTimeoutMs)
        }
        machine = WebSocketConnection(
            role: .client,
            configuration: .init(
                maxMessageBytes: configuration.maxMessageBytes, closeTimeoutMs: configuration.closeTimeoutMs,
                liveness: liveness))
    }

    /// Whether messages may be sent: the handshake is done and no close has begun.
    public var isOpen: Bool {
        loop.assertInLoop()
        return phase == .open
    }

    /// Bytes given to ``send(text:)`` (framed) and not yet written to the socket; for backpressure.
    public var unsentBytes: Int {
        loop.assertInLoop()
        return connection?.unsentBytes ?? 0
    }

    /// Begins connecting (`idle` → `connecting`); call once. Later calls do nothing.
    public func start() {
        loop.assertInLoop()
        guard phase == .idle else { return }
        beginConnecting()
    }

    /// Sends one text message (its bytes must be UTF-8; not checked here), masked (RFC 6455 §5.3). Only while open;
    /// otherwise ignored.
    public func send(text: [UInt8]) {
        loop.assertInLoop()
        guard phase == .open, let connection, let frame = machine.send(.text, payload: text) else { return }
        connection.write(frame)
    }

    /// Begins the closing handshake (RFC 6455 §7.1.2) with `code` (one that may be sent, §7.4: 1000–1003, 1007–1014,
    /// 3000–4999; anything else is sent as 1000) and `reason` (cut to fit 123 bytes); ``onEnd`` follows with
    /// `.closed` once the server answered and ended TCP, or `.failed` after `closeTimeoutMs` without an answer. Before
    /// the handshake is done, the attempt is given up (`.failed`). No effect once closing.
    public func close(code: UInt16 = 1000, reason: String = "") {
        loop.assertInLoop()
        switch phase {
        case .idle, .connecting, .handshaking:
            end(.failed("closed by the app before the WebSocket opened"), dropConnection: true)
        case .open:
            let closeCode = WebSocketCloseCode(rawValue: code)
            phase = .closing
            perform { $0.close(code: closeCode.isSendable ? closeCode : .normalClosure, reason: reason, into: &$1) }
        case .closing, .closed:
            break
        }
    }

    /// Drops TCP now, without a Close frame; ``onEnd`` follows with `.failed("aborted")` (or the ending already
    /// decided). No effect once closed.
    public func abort() {
        loop.assertInLoop()
        guard phase != .closed else { return }
        end(.failed("aborted"), dropConnection: true)
    }
}
