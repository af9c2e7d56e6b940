import JSON
import UVLoop

/// What a subscriber watches: the whole state or one sub-value (RFC 6901 JSON Pointer), as full states or as
/// RFC 6902 patches. Subscribers on the same channel share every message: it is built once per change.
struct StreamChannel: Hashable, Sendable {
    /// How changes are sent.
    enum Format: String, Sendable {
        /// A `state` message with the whole (projected) value each time.
        case full = "state"
        /// After the first snapshot, `patch` messages from the previous version sent.
        case patch

        /// Hashes the case, not its raw value (the default for a `String` raw-value enum hashes the string): a channel
        /// is a dictionary key hashed about nine times per WebSocket connection (subscribe, first message,
        /// unsubscribe). Issue 18, callgrind: the string's hash was about 120 of the 185 instructions of each.
        func hash(into hasher: inout Hasher) {
            hasher.combine(self == .full)
        }
    }

    var format: Format = .full
    /// The projection, or nil for the whole state.
    var path: JSONPointer?

    /// The whole state as `state` messages: the v1 stream.
    static let whole = StreamChannel()
}

/// One message of a store's stream, built once and written to every subscriber of its channel.
///
/// Its JSON text is one buffer (`body`); the transport framings (a WebSocket text frame, an SSE event) are built
/// lazily, once each, on the loop thread, and share that buffer when the message is large (``OutboundFrame``).
///
/// ## Thread safety
/// Immutable after creation except the lazy frames. A message only one loop sees is framed there; a message handed
/// to several loops (a change for several loops, or one kept in the fanout's ``StreamMessageCache``, which any loop
/// may take) is framed first with ``prepareForSharing()``, so no loop ever writes the lazy properties.
final class StreamMessage: @unchecked Sendable {
    enum Kind: String, Sendable { case state, patch, event, deleted }

    let kind: Kind
    /// The version this message brings the subscriber to (for events: the version they were emitted at).
    let version: UInt64
    /// For patches: the version the ops apply to.
    let base: UInt64?
    let epoch: String
    /// The JSON text of the message.
    let body: OutboundBuffer

    init(kind: Kind, version: UInt64, base: UInt64? = nil, epoch: String, body: OutboundBuffer) {
        self.kind = kind
        self.version = version
        self.base = base
        self.epoch = epoch
        self.body = body
    }

    convenience init(kind: Kind, version: UInt64, base: UInt64? = nil, epoch: String, json: [UInt8]) {
        self.init(kind: kind, version: version, base: base, epoch: epoch, body: OutboundBuffer(json))
    }

    /// The JSON text, copied (tests and logging).
    var json: [UInt8] { body.bytes }

    /// Builds both framings now (before the message goes to several loops at once).
    func prepareForSharing() {
        _ = webSocketFrame
        _ = serverSentEvent
    }

    /// The message as one unmasked WebSocket text frame (RFC 6455 §5.6), made on first use.
    var webSocketFrame: OutboundFrame {
        if let frame = webSocketFrameStorage { return frame }
        let frame = WebSocketFrames.text(body)
        webSocketFrameStorage = frame
        return frame
    }
    /// Queues ``webSocketFrame``'s buffers on `connection` (a fan-out delivery: the frame is read in place, not copied
    /// out of the message).
    func writeWebSocketFrame(to connection: TCPConnection) {
        if webSocketFrameStorage == nil { webSocketFrameStorage = WebSocketFrames.text(body) }
        webSocketFrameStorage?.write(to: connection)
    }
    /// Read once per subscriber per message: no dynamic exclusivity check (see the thread-safety note; issue 14,
    /// callgrind: the check would cost 76 instructions per delivery).
    @exclusivity(unchecked) private var webSocketFrameStorage: OutboundFrame?

    /// The message as a Server-Sent Event: `id: <epoch>-<version>`, `event: <kind>`, `data: <json>`
    /// (HTML Living Standard §9.2.5), inside one HTTP/1.1 chunk.
    private(set) lazy var serverSentEvent = ServerSentEvents.chunk(
        id: kind == .event || kind == .deleted ? nil : "\(epoch)-\(version)", event: kind.rawValue, body: body)
}
