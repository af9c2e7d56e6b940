internal import CLibUV

/// Flow-control thresholds of one connection's writes, and its write-stall timeout.
///
/// ## Thread safety
/// A value type (`Sendable`); a connection's copy is read and set on its loop's thread only.
public struct WriteLimits: Sendable, Equatable {
    /// Unsent bytes above which the connection is write-paused. Default 1 MiB (1,048,576 bytes).
    public var highWaterBytes: Int
    /// Unsent bytes at or below which a paused connection is writable again (``TCPConnection/onWritable``).
    /// Default 512 KiB (half the high-water mark).
    public var lowWaterBytes: Int
    /// A connection with bytes waiting in libuv's write queue that sent the peer nothing for this long (the peer
    /// reads nothing) is closed, ms; 0 turns the watch off. Checked every quarter of it, so a stalled connection
    /// goes after 1 to 1.25 times this. Default 0 (the Statehouse server sets `timeouts.writeStallMs`).
    public var stallTimeoutMs: Int

    /// - Parameters:
    ///   - highWaterBytes: bytes, at least 1.
    ///   - lowWaterBytes: bytes, at most `highWaterBytes`; nil: half of `highWaterBytes`.
    ///   - stallTimeoutMs: milliseconds, 0 for none.
    public init(highWaterBytes: Int = 1_048_576, lowWaterBytes: Int? = nil, stallTimeoutMs: Int = 0) {
        self.highWaterBytes = max(highWaterBytes, 1)
        self.lowWaterBytes = min(lowWaterBytes ?? highWaterBytes / 2, self.highWaterBytes)
        self.stallTimeoutMs = max(stallTimeoutMs, 0)
    }
}

extension TCPConnection {
    /// Whether the connection is above its high-water mark (see ``WriteLimits``): its owner should produce nothing
    /// more, and read nothing more, until ``onWritable`` is called.
    enum WriteFlow { case writable, paused }

    /// The write-stall watch: one repeating timer, running only while bytes wait in libuv's write queue.
    ///
    /// libuv reports a `uv_write` only when all of it is written; its write queue size (`write_queue_size`) shows
    /// partial progress, and the kernel's unsent count (`SIOCOUTQNSD`) shows what the peer took of that. Each tick
    /// compares the bytes sent to the peer so far with the last tick's: no change for `stallTimeoutMs` means the peer
    /// reads nothing.
    struct StallWatch {
        var timer: LoopTimer?
        var isWatching = false
        /// Bytes sent to the peer at the last tick (``sentBytes``).
        var sentMark: UInt64 = 0
        /// When ``sentMark`` last changed (or the watch began), loop milliseconds.
        var progressAt: UInt64 = 0
    }

    /// True while more than ``WriteLimits/highWaterBytes`` wait unsent, until they fall to
    /// ``WriteLimits/lowWaterBytes`` (then ``onWritable`` is called).
    public var isWritePaused: Bool {
        loop.assertInLoop()
        return writeFlow == .paused
    }

    /// Whether every byte of the stream up to `offset` (a value of ``acceptedBytes`` taken after a write) has been
    /// sent: handed to the kernel, and sent by it (not held for the peer's receive window). One `ioctl` per call.
    public func hasSent(upTo offset: UInt64) -> Bool {
        loop.assertInLoop()
        return sentBytes >= offset
    }

    /// A paused connection whose unsent bytes fell to the low-water mark is writable again; its owner hears of it.
    func resumeIfDrained() {
        guard writeFlow == .paused, unsentBytes <= writeLimits.lowWaterBytes else { return }
        writeFlow = .writable
        if state == .open { onWritable?() }
    }

    /// Bytes of the stream the kernel has sent to the peer: those it was given (by `uv_try_write` or libuv's queue,
    /// whose `write_queue_size` counts partial writes) less those it still holds unsent (`SIOCOUTQNSD`). It grows
    /// whenever the peer reads, even while libuv waits to write more (the kernel's send buffer, megabytes on
    /// loopback, frees room only in large steps, which a slow reader can take longer than the stall timeout to make).
    private var sentBytes: UInt64 {
        let given = acceptedBytes &- UInt64(outboxBytes) &- UInt64(uv_stream_get_write_queue_size(stream))
        let heldByKernel = UInt64(max(cuv_tcp_kernel_unsent_bytes(handle), 0))
        return given >= heldByKernel ? given - heldByKernel : 0
    }

    /// Starts the stall watch when bytes begin to wait in libuv (not on every write).
    func startStallWatch() {
        let stallMs = writeLimits.stallTimeoutMs
        guard stallMs > 0 else { return }
        stallWatch.isWatching = true
        stallWatch.sentMark = sentBytes
        stallWatch.progressAt = loop.now
        let tick = UInt64(max(stallMs / 4, 1))
        if let timer = stallWatch.timer { return timer.start(delayMs: tick, repeatMs: tick) }
        let timer = LoopTimer(loop: loop)
        stallWatch.timer = timer
        // The timer is closed with the connection (`closeHandle`), so it never fires for a connection that is gone.
        timer.start(delayMs: tick, repeatMs: tick) { [unowned self] in checkStall() }
    }

    /// One tick: the queue emptied (the watch stops), bytes reached the peer (progress), or none did for
    /// `stallTimeoutMs` (the connection is closed, its owner told once through ``onWriteStall``).
    private func checkStall() {
        guard pendingWriteCount > 0, state == .open || state == .draining else {
            stallWatch.isWatching = false
            stallWatch.timer?.stop()
            return
        }
        let sent = sentBytes
        let now = loop.now
        if sent != stallWatch.sentMark {
            stallWatch.sentMark = sent
            stallWatch.progressAt = now
        } else if now &- stallWatch.progressAt >= UInt64(writeLimits.stallTimeoutMs) {
            let report = onWriteStall
            onWriteStall = nil
            report?(unsentBytes)
            closeHandle()
        }
    }
}
