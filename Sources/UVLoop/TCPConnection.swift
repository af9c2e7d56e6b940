internal import CLibUV

/// One accepted TCP connection.
///
/// Lifecycle (an explicit state machine, see ``State``):
/// ```
/// open ──closeAfterWrites()──▶ draining ──writes done──▶ finSent ──EOF/timeout──▶ closing ──▶ closed
///   └───────────────close() / read error / write error───────────────────────────▶ closing ──▶ closed
/// ```
/// A graceful close sends every queued byte, then a FIN (`uv_shutdown`), then discards input until the peer
/// closes (or 2 s pass), so the kernel never answers unread input with a RST that could destroy the response.
///
/// Write flow control (a second explicit state machine, see ``WriteFlow`` and ``writeLimits``):
/// ```
/// writable ──unsent bytes > highWaterBytes──▶ paused ──unsent bytes ≤ lowWaterBytes──▶ writable (onWritable)
/// ```
/// Writes are never refused: a paused connection still queues what it is given; its owner is expected to stop
/// producing (and reading) until ``onWritable``. While bytes wait in libuv's write queue, one repeating timer
/// watches it; no byte reaching the peer for `stallTimeoutMs` (the peer reads nothing) closes the connection,
/// whether it is open or draining (see `TCPConnection+WriteFlow.swift`).
///
/// ## Thread safety
/// Loop-confined: every method and callback runs on its loop's thread.
public final class TCPConnection: LoopHandleOwner, @unchecked Sendable {
    enum State { case open, draining, finSent, closing, closed }

    // Every stored variable below is touched on the loop thread only (see Thread safety), most of them for every
    // read or write: no dynamic exclusivity checks. Measured (issue 14, callgrind, release): the checks would cost
    // about 900 instructions per HTTP request (`write` 536, `didRead`, `flushOutbox`) and 630 per fan-out delivery.

    let handle: UnsafeMutablePointer<uv_tcp_t>
    /// The loop this connection belongs to.
    public let loop: EventLoop
    @exclusivity(unchecked) var state: State = .open
    @exclusivity(unchecked) var isReading = false
    @exclusivity(unchecked) var pendingWriteCount = 0
    @exclusivity(unchecked) var lingerTimer: LoopTimer?
    @exclusivity(unchecked) var writeFlow: WriteFlow = .writable
    /// Flow-control thresholds and the stall timeout; set by the owner when it takes the connection.
    @exclusivity(unchecked) public var writeLimits = WriteLimits()
    /// Bytes ever accepted by ``write(_:)`` (a stream offset, see ``hasSent(upTo:)``).
    @exclusivity(unchecked) public internal(set) var acceptedBytes: UInt64 = 0
    @exclusivity(unchecked) var stallWatch = StallWatch()
    /// When the connection was made, in loop milliseconds (``EventLoop/now``, the loop's cached clock: no system
    /// call); see ``ageMs``.
    let openedAt: UInt64

    /// Bytes handed to libuv and not yet written.
    @exclusivity(unchecked) var pendingWriteBytes = 0
    /// The first buffer gathered during a batch of loop jobs (most batches gather one per connection: a fan-out
    /// delivery, a reply); the second and later ones wait in `outbox`. All are sent together when the batch ends.
    /// Kept apart so a single frame is written from this object alone, without the outbox's array storage or its
    /// write vectors (issue 18).
    @exclusivity(unchecked) var firstGathered: OutboundBuffer?
    /// Buffers gathered after ``firstGathered``, in order.
    @exclusivity(unchecked) var outbox: [OutboundBuffer] = []
    /// Bytes in ``firstGathered`` and ``outbox``.
    @exclusivity(unchecked) var outboxBytes = 0

    /// Bytes accepted by ``write(_:)`` and not yet written to the socket.
    public var unsentBytes: Int {
        loop.assertInLoop()
        return pendingWriteBytes + outboxBytes
    }
    /// Bytes received: valid only during the call; copy what you keep.
    @exclusivity(unchecked) public var onRead: ((UnsafeRawBufferPointer) -> Void)?
    /// The peer closed its side (EOF: `error.isEndOfFile`, reading has stopped and the owner must close, at once or
    /// after answering) or the connection failed (it is closing already). Called at most once, while still `open`.
    @exclusivity(unchecked) public var onEnd: ((UVError) -> Void)?
    /// Called once when the connection is fully closed.
    @exclusivity(unchecked) public var onClosed: (() -> Void)?
    /// Called when a write-paused connection is writable again: its unsent bytes fell to ``WriteLimits/lowWaterBytes``
    /// or below (after queued writes completed, or when gathered writes were taken by the kernel). Never called from
    /// inside ``write(_:)``, ``close()`` or ``closeAfterWrites()``, and only while the connection is open.
    @exclusivity(unchecked) public var onWritable: (() -> Void)?
    /// Called once, just before the connection is closed by the write-stall timeout, with the bytes left unsent
    /// (for the owner's log line).
    @exclusivity(unchecked) public var onWriteStall: ((_ unsentBytes: Int) -> Void)?

    var stream: UnsafeMutablePointer<uv_stream_t> { cuv_tcp_as_stream(handle) }

    init(loop: EventLoop) {
        loop.assertInLoop()
        self.loop = loop
        handle = .allocate(capacity: 1)
        openedAt = uv_now(loop.uvLoop)
        uv_tcp_init(loop.uvLoop, handle)
        loop.register(self, handle: cuv_tcp_as_handle(handle))
    }

    deinit { handle.deallocate() }

    func configure() { uv_tcp_nodelay(handle, 1) }

    /// True until a close (graceful or not) has begun.
    public var isOpen: Bool {
        loop.assertInLoop()
        return state == .open
    }

    /// Starts delivering bytes to ``onRead``.
    public func startReading() {
        loop.assertInLoop()
        guard !isReading, state == .open || state == .finSent else { return }
        isReading = true
        uv_read_start(stream, tcpAllocate, tcpRead)
    }

    /// Stops delivering bytes (backpressure); the kernel buffers, then the peer's sends slow down.
    public func stopReading() {
        loop.assertInLoop()
        guard isReading else { return }
        isReading = false
        uv_read_stop(stream)
    }

    /// Closes at once; writes the kernel has not taken yet are abandoned.
    public func close() {
        loop.assertInLoop()
        flushOutbox()
        closeHandle()
    }

    /// Sends everything queued, then FIN, then closes once the peer has closed too (at most 2 s later).
    public func closeAfterWrites() {
        loop.assertInLoop()
        guard state == .open else { return }
        flushOutbox()
        guard state == .open else { return }
        state = .draining
        if pendingWriteCount == 0 { sendFin() }
    }

    func closeHandle() {
        loop.assertInLoop()
        guard state != .closing, state != .closed else { return }
        state = .closing
        isReading = false
        lingerTimer?.close()
        lingerTimer = nil
        stallWatch.timer?.close()
        stallWatch.timer = nil
        loop.close(cuv_tcp_as_handle(handle))
    }

    func handleDidClose() {
        loop.assertInLoop()
        state = .closed
        let onClosed = self.onClosed
        onRead = nil
        onEnd = nil
        self.onClosed = nil
        onWritable = nil
        onWriteStall = nil
        onClosed?()
    }
}
