/// A subscriber's place in its store's stream and the slow-consumer rule, shared by WebSocket and SSE sessions.
///
/// A subscriber is *behind* once its connection is write-paused (more than the high-water mark of bytes waits
/// unsent, see `TCPConnection`): it is then sent nothing until the connection is writable again, and then one
/// catch-up message (a patch from its last version, or a snapshot). How long it may stay behind is its session's
/// lag rule (``LagWatch``), timed apart from any delivery.
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
    /// True from a delivery that found the connection write-paused until the session's catch-up (see `drained`).
    var isBehind = false

    /// What to do with a message of the subscriber's channel.
    enum Decision {
        /// Write it.
        case send
        /// Its base is not what the subscriber holds: send a catch-up message instead.
        case catchUp
        /// Nothing to send (old version, or the subscriber is behind).
        case skip
    }

    /// What to do with `message`; `writePaused` is the connection's state now (a paused one makes it behind).
    mutating func decide(_ message: StreamMessage, writePaused: Bool) -> Decision {
        if writePaused { isBehind = true }
        if message.kind == .event || message.kind == .deleted { return !isBehind || message.kind == .deleted ? .send : .skip }
        if isBehind || (hasSent && message.version <= lastVersion) { return .skip }
        if message.kind == .patch, message.base != (hasSent ? lastVersion : nil) { return .catchUp }
        return .send
    }

    /// Records a written message; `writePaused` is the connection's state after writing it.
    mutating func sent(_ message: StreamMessage, writePaused: Bool) {
        if message.kind == .state || message.kind == .patch {
            hasSent = true
            lastVersion = message.version
            if lastEpoch != message.epoch { lastEpoch = message.epoch }
        }
        if writePaused { isBehind = true }
    }
}
