internal import CLibUV

extension TCPConnection {
    /// Queues `buffer` for writing; the buffer stays alive until written. Ignored once a close has begun.
    ///
    /// Inside a batch of jobs from ``EventLoop/execute(_:)`` (where broadcasts happen), writes are gathered per
    /// connection and sent with one system call when the batch ends; elsewhere they are sent at once. Afterwards the
    /// connection is write-paused (``isWritePaused``) if more than ``WriteLimits/highWaterBytes`` wait unsent.
    public func write(_ buffer: OutboundBuffer) {
        loop.assertInLoop()
        guard state == .open, buffer.count > 0 else { return }
        let count = buffer.count
        let isFirst = firstGathered == nil
        if isFirst { firstGathered = buffer } else { outbox.append(buffer) }
        outboxBytes += count
        acceptedBytes &+= UInt64(count)
        if loop.isRunningJobs {
            if isFirst { loop.markForFlush(self) }
        } else {
            flushOutbox()
        }
        if writeFlow == .writable, unsentBytes > writeLimits.highWaterBytes { writeFlow = .paused }
    }

    /// Sends what a batch of jobs gathered (the loop calls it when the batch ends), then tells the owner if that
    /// made a paused connection writable.
    func flushGathered() {
        loop.assertInLoop()
        flushOutbox()
        resumeIfDrained()
    }

    /// Sends everything gathered by ``write(_:)``: one `uv_try_write` of all buffers, then one `uv_write` for what the
    /// kernel did not take (the buffers stay alive until it completes). A single buffer (``firstGathered`` alone) is
    /// written from a write vector on the stack.
    func flushOutbox() {
        guard let first = firstGathered else { return }
        firstGathered = nil
        let total = outboxBytes
        outboxBytes = 0
        guard state == .open || state == .draining else { return outbox.removeAll() }
        guard outbox.isEmpty else { return flushMany(first, total: total) }
        var vector = uv_buf_init(first.base.assumingMemoryBound(to: CChar.self), UInt32(total))
        var written = 0
        if pendingWriteCount == 0 {
            // Fast path: the kernel usually takes it all at once; no request allocation needed.
            guard let taken = tryWrite(&vector, count: 1, total: total) else { return }
            if taken == total { return }
            written = taken
        }
        queueWrite([first], vectors: &vector, written: written, total: total)
    }

    /// ``flushOutbox()`` for `first` and the buffers in ``outbox``, `total` bytes in all.
    private func flushMany(_ first: OutboundBuffer, total: Int) {
        // Take the outbox's storage (no copy); on the fast path it comes back emptied, capacity kept.
        var buffers: [OutboundBuffer] = []
        swap(&buffers, &outbox)
        let count = buffers.count + 1
        let bufs = loop.scratchWriteVectors(count)
        bufs[0] = uv_buf_init(first.base.assumingMemoryBound(to: CChar.self), UInt32(first.count))
        for (index, buffer) in buffers.enumerated() {
            bufs[index + 1] = uv_buf_init(buffer.base.assumingMemoryBound(to: CChar.self), UInt32(buffer.count))
        }
        var written = 0
        if pendingWriteCount == 0 {
            guard let taken = tryWrite(bufs, count: count, total: total) else { return }
            if taken == total {
                // Everything is with the kernel: the write queue is empty again.
                if outbox.isEmpty {
                    buffers.removeAll(keepingCapacity: true)
                    outbox = buffers
                }
                return
            }
            written = taken
        }
        buffers.insert(first, at: 0)
        queueWrite(buffers, vectors: bufs, written: written, total: total)
    }

    /// One `uv_try_write` of `count` vectors, `total` bytes: the bytes the kernel took (0 when it would block), or
    /// nil after a failure (the connection is failing).
    private func tryWrite(_ bufs: UnsafeMutablePointer<uv_buf_t>, count: Int, total: Int) -> Int? {
        let result = uv_try_write(stream, bufs, UInt32(count))
        if result >= 0 {
            loop.writtenBytes &+= UInt64(result)
            return Int(result)
        }
        if result == Int32(UV_EAGAIN.rawValue) { return 0 }
        fail(UVError(operation: "uv_try_write", code: result))
        return nil
    }

    /// Queues what the kernel did not take of `buffers` (their vectors `bufs`, of which `written` bytes went out) as
    /// one `uv_write`; the buffers stay alive in its context until it completes.
    private func queueWrite(
        _ buffers: [OutboundBuffer], vectors bufs: UnsafeMutablePointer<uv_buf_t>, written: Int, total: Int
    ) {
        // Skip what was written: whole buffers, then a prefix of the next one.
        var first = 0
        var skip = written
        while skip >= bufs[first].len {
            skip -= bufs[first].len
            first += 1
        }
        let rest = bufs + first
        rest[0] = uv_buf_init(rest[0].base + skip, UInt32(rest[0].len - skip))
        let restCount = buffers.count - first
        let remaining = total - written
        let request = UnsafeMutablePointer<uv_write_t>.allocate(capacity: 1)
        request.pointee.data = Unmanaged.passRetained(WriteContext(buffers: buffers, connection: self, count: remaining))
            .toOpaque()
        pendingWriteCount += 1
        pendingWriteBytes += remaining
        // libuv copies the vectors into the request; the buffers stay alive in the WriteContext.
        let status = uv_write(request, stream, rest, UInt32(restCount)) { request, status in
            guard let request else { return }
            let context = Unmanaged<WriteContext>.fromOpaque(request.pointee.data).takeRetainedValue()
            request.deallocate()
            context.connection.writeCompleted(bytes: context.count, status: status)
        }
        if status < 0 {
            Unmanaged<WriteContext>.fromOpaque(request.pointee.data).release()
            request.deallocate()
            pendingWriteCount -= 1
            pendingWriteBytes -= remaining
            fail(UVError(operation: "uv_write", code: status))
            return
        }
        if !stallWatch.isWatching { startStallWatch() }
    }

    /// Copies `bytes` and queues them for writing.
    public func write(_ bytes: [UInt8]) { write(OutboundBuffer(bytes)) }

    func writeCompleted(bytes: Int, status: Int32) {
        loop.assertInLoop()
        pendingWriteCount -= 1
        pendingWriteBytes -= bytes
        if status < 0 {
            if state == .open || state == .draining { fail(UVError(operation: "uv_write", code: status)) }
            return
        }
        loop.writtenBytes &+= UInt64(bytes)
        if pendingWriteCount == 0, state == .draining { return sendFin() }
        resumeIfDrained()
    }

    func sendFin() {
        state = .finSent
        let request = UnsafeMutablePointer<uv_shutdown_t>.allocate(capacity: 1)
        request.pointee.data = Unmanaged.passRetained(self).toOpaque()
        let status = uv_shutdown(request, stream) { request, _ in
            guard let request else { return }
            let connection = Unmanaged<TCPConnection>.fromOpaque(request.pointee.data).takeRetainedValue()
            request.deallocate()
            connection.awaitPeerClose()
        }
        if status < 0 {
            Unmanaged<TCPConnection>.fromOpaque(request.pointee.data).release()
            request.deallocate()
            closeHandle()
        }
    }

    /// After our FIN: discard input until EOF, bounded by a 2 s timer.
    private func awaitPeerClose() {
        guard state == .finSent else { return }
        onRead = nil
        if !isReading { startReading() }
        let timer = LoopTimer(loop: loop)
        lingerTimer = timer
        timer.start(delayMs: 2000) { [weak self] in self?.closeHandle() }
    }

    func didRead(_ count: Int) {
        loop.assertInLoop()
        if count > 0 {
            loop.readBytes &+= UInt64(count)
            guard state == .open || state == .draining else { return }
            onRead?(UnsafeRawBufferPointer(start: loop.readBuffer, count: count))
        } else if count < 0 {
            let error = UVError(operation: "uv_read", code: Int32(count))
            guard error.isEndOfFile, state == .open else {
                if state == .open { fail(error) } else { closeHandle() }
                return
            }
            // Half-close: the peer sent FIN but may still read. The owner answers what is in flight, then closes.
            stopReading()
            let onEnd = self.onEnd
            self.onEnd = nil
            onEnd?(error)
        }
    }

    /// The peer went away or I/O failed: tell the owner once, then close.
    func fail(_ error: UVError) {
        loop.assertInLoop()
        let onEnd = self.onEnd
        self.onEnd = nil
        if state == .open { onEnd?(error) }
        closeHandle()
    }
}

final class WriteContext {
    /// Kept alive until libuv has written them.
    let buffers: [OutboundBuffer]
    let connection: TCPConnection
    let count: Int

    init(buffers: [OutboundBuffer], connection: TCPConnection, count: Int) {
        self.buffers = buffers
        self.connection = connection
        self.count = count
    }
}

func tcpAllocate(_ handle: UnsafeMutablePointer<uv_handle_t>?, _ suggested: Int, _ buffer: UnsafeMutablePointer<uv_buf_t>?) {
    guard let handle, let buffer, let owner = handle.pointee.data else { return }
    let connection = Unmanaged<TCPConnection>.fromOpaque(owner).takeUnretainedValue()
    buffer.pointee = uv_buf_init(connection.loop.readBuffer.assumingMemoryBound(to: CChar.self), UInt32(EventLoop.readBufferSize))
}

func tcpRead(_ stream: UnsafeMutablePointer<uv_stream_t>?, _ count: Int, _ buffer: UnsafePointer<uv_buf_t>?) {
    guard let stream, let owner = stream.pointee.data else { return }
    Unmanaged<TCPConnection>.fromOpaque(owner).takeUnretainedValue().didRead(count)
}
