/// A subscriber's place in its store's stream and the slow-consumer rule, shared by WebSocket and SSE sessions.
///
/// A subscriber is *behind* once more than the high-water mark of bytes waits unsent: it is then sent nothing until
/// its socket drains, and then one catch-up message (a patch from its last version, or a snapshot). Behind for longer
/// than the allowed lag, it is dropped.
struct StreamCursor {
    /// The last version sent (and its epoch).
    var lastSent: StreamPosition? {
        get { hasSent ? StreamPosition(epoch: lastEpoch, version: lastVersion) : nil }
        set {
            hasSent = newValue != nil
            if let position = newValue { (lastEpoch, lastVersion) = (position.epoch, position.version) }
        }
    }
    /// ``lastSent`` in parts, so a delivery reads and writes integers instead of copying an optional with a string.
    private var hasSent = false
    private var lastVersion: UInt64 = 0
    private var lastEpoch = ""
    /// Since when the subscriber has been behind (time since ``clockOrigin``); nil when it is not. A `Duration`, not a
    /// `ContinuousClock.Instant`, whose layout is resilient: copying and testing a cursor then costs no runtime call.
    var behindSince: Duration?

    /// The reference point of ``behindSince``.
    private static let clockOrigin = ContinuousClock.now
    private static var elapsed: Duration { ContinuousClock.now - clockOrigin }

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
        if hasSent, message.version <= lastVersion { return .skip }
        if let since = behindSince { return Self.elapsed - since > maxLag ? .tooSlow : .skip }
        if message.kind == .patch, message.base != (hasSent ? lastVersion : nil) { return .catchUp }
        return .send
    }

    /// Records a written message; `pendingBytes` is the socket's unsent byte count after writing it.
    mutating func sent(_ message: StreamMessage, pendingBytes: Int, highWater: Int) {
        if message.kind == .state || message.kind == .patch {
            hasSent = true
            lastVersion = message.version
            if lastEpoch != message.epoch { lastEpoch = message.epoch }
        }
        if pendingBytes > highWater, behindSince == nil { behindSince = Self.elapsed }
    }
}
