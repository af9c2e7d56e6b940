/// A subscriber's place in its store's stream and the slow-consumer rule, shared by WebSocket and SSE sessions.
///
/// A subscriber is *behind* once more than the high-water mark of bytes waits unsent: it is then sent nothing until
/// its socket drains, and then one catch-up message (a patch from its last version, or a snapshot). Behind for longer
/// than the allowed lag, it is dropped.
struct StreamCursor {
    /// The last version sent (and its epoch).
    var lastSent: StreamPosition?
    /// Since when the subscriber has been behind; nil when it is not.
    var behindSince: ContinuousClock.Instant?

    /// What to do with a message of the subscriber's channel.
    enum Decision {
        /// Write it.
        case send
        /// Its base is not what the subscriber holds: send a catch-up message instead.
        case catchUp
        /// Nothing to send (old version, or the subscriber is behind).
        case skip
        /// Behind for longer than allowed: close the subscriber.
        case tooSlow
    }

    func decide(_ message: StreamMessage, maxLag: Duration) -> Decision {
        if message.kind == .event || message.kind == .deleted { return behindSince == nil || message.kind == .deleted ? .send : .skip }
        if let last = lastSent, message.version <= last.version { return .skip }
        if let since = behindSince { return ContinuousClock.now - since > maxLag ? .tooSlow : .skip }
        if message.kind == .patch, message.base != lastSent?.version { return .catchUp }
        return .send
    }

    /// Records a written message; `pendingBytes` is the socket's unsent byte count after writing it.
    mutating func sent(_ message: StreamMessage, pendingBytes: Int, highWater: Int) {
        if message.kind == .state || message.kind == .patch {
            lastSent = StreamPosition(epoch: message.epoch, version: message.version)
        }
        if pendingBytes > highWater, behindSince == nil { behindSince = .now }
    }
}
