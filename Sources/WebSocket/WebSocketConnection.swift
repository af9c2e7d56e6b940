/// One WebSocket connection's protocol, as a pure value: the RFC 6455 rules of either end, with no I/O, no timers
/// and no clock of its own.
///
/// An adapter (the Statehouse server's `WebSocketSession`, `statehouse-echo`'s `EchoConnection`, a client) feeds it
/// events — bytes read, a message, ping or close the app wants to send, a timer that fired, the peer's EOF — and
/// carries out the ``Action``s it returns, in order: writes, deliveries to the app, closing the socket, timers.
/// It owns every protocol rule:
/// - framing and fragment reassembly with the message size limit (through ``WebSocketReader``), the masking rule of
///   its ``WebSocketRole`` both ways (§5.1, §5.3: a client masks what it sends, a server requires masked input);
/// - control frames: a Ping is answered with a Pong carrying its data (§5.5.2), a Pong is taken as a sign of life
///   (§5.5.3);
/// - the closing handshake in both directions (§5.5.1, §7.1.1–§7.1.4): the peer's Close is echoed with its code (or
///   none); our Close waits up to ``Configuration/closeTimeoutMs`` for the peer's; a server closes TCP first, a
///   client waits for the server's EOF (§7.1.1);
/// - failing the connection on a protocol error (§7.1.7): a Close with 1002, 1007 or 1009 and its reason, then FIN;
/// - liveness (optional, ``Liveness``): a connection silent for `pingIntervalMs` is pinged, and dropped when it
///   stays silent `pongTimeoutMs` after the ping was *sent*; a ping still queued unsent, or a write-paused transport
///   (which reads nothing, so could not hear the answer), holds the wait instead of failing it.
///
/// Lifecycle (``State``):
/// ```
///            ┌──peer Close: echo it (§5.5.1)─────────────┬─server──▶ closed (FIN after the echo)
///            │                                           └─client──▶ awaitingEOF ──EOF / close timer──▶ closed
///  open ─────┼──close(code:reason:): send Close, arm the close timer──▶ closeSent
///            ├──protocol error (reader) or fail(_:): Close 1002/1007/1009/…, FIN after it────────────────▶ closed
///            ├──no pong (liveness) / peer EOF: close now─────────────────────────────────────────────────▶ closed
///  closeSent ┼──peer Close──┬─server──▶ closed (close now)
///            │              └─client──▶ awaitingEOF
///            └──close timer / peer EOF / protocol error──▶ closed
/// ```
/// Data messages are delivered and may be sent only while `open`; Pings are answered while `open` or `closeSent`
/// (after the peer's Close nothing more is read, §5.5.1).
///
/// Reading: ``read(_:from:now:into:)`` stops after each delivered message, so what the app does with it (sending,
/// closing) happens before the next frame is looked at, exactly as if messages arrived one by one.
///
/// Sending data: ``send(_:payload:)`` frames a message (masked for a client), or ``frameLength(payloadCount:)`` and
/// ``encodeFrame(_:payload:to:)`` frame it into memory the adapter owns (no extra copy). A server may also write a
/// frame it encoded once for many connections (a broadcast) while ``mayWriteData`` is true: unmasked server frames
/// are the same for every connection.
///
/// ## Thread safety
/// A value type with no shared state; keep one per connection and use it from one thread (the event loop) at a time.
public struct WebSocketConnection: Sendable {
    /// Where the connection is in its lifecycle (see the diagram on ``WebSocketConnection``).
    public enum State: Sendable, Equatable, CaseIterable {
        /// Messages flow both ways.
        case open
        /// We sent a Close and wait for the peer's (the close timer runs); data received is discarded.
        case closeSent
        /// Client only: Close frames were exchanged; the server should end TCP first (§7.1.1). The close timer runs.
        case awaitingEOF
        /// The connection is done: the socket was told to close (at once or after the queued writes). Input is ignored.
        case closed
    }

    /// Which end we are; decides masking both ways (§5.1) and who ends TCP first (§7.1.1).
    public let role: WebSocketRole
    /// The settings given at creation.
    public let configuration: Configuration
    /// Where the connection is now.
    @usableFromInline var lifecycle: State = .open
    /// Frames of the peer → messages; finished after a Close or a failure.
    var reader: WebSocketReader
    /// Keep-alive bookkeeping (only used when ``Configuration/liveness`` is set).
    var keepAlive = KeepAlive()
    /// Where masking keys for our frames come from (client role only).
    var maskingKeys: MaskingKeys
    /// The peer's Close, once one was read (in any state that reads: `open` or `closeSent`); nil before. An adapter
    /// reports it when the connection ends (a client learns of the end only at EOF, in `awaitingEOF`).
    public internal(set) var receivedClose: ReceivedClose?

    /// Creates an open connection (the opening handshake is done).
    /// - Parameters:
    ///   - role: `.server` or `.client` (§5.1).
    ///   - configuration: message limit, close timeout, liveness.
    ///   - maskingKeys: where a client's masking keys come from (§5.3); `.random` unless a test needs fixed frames.
    public init(role: WebSocketRole, configuration: Configuration, maskingKeys: MaskingKeys = .random) {
        self.role = role
        self.configuration = configuration
        self.maskingKeys = maskingKeys
        reader = WebSocketReader(role: role, maxMessageBytes: configuration.maxMessageBytes)
    }

    /// Where the connection is in its lifecycle.
    @inlinable public var state: State { lifecycle }

    /// Whether data messages may be delivered and sent: the connection is `open` (§5.5.1: no data after a Close).
    @inlinable public var mayWriteData: Bool { lifecycle == .open }

    /// Whether the adapter should read the socket to make progress on the closing handshake: a Close was sent and
    /// the peer's is awaited, whatever the app's backpressure (§7.1.2).
    @inlinable public var mustReadForClose: Bool { lifecycle == .closeSent }
}
