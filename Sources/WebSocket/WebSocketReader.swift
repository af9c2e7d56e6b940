/// Incremental reader: bytes in any split → complete messages (RFC 6455 §5).
///
/// Assembles fragmented text and binary messages (§5.4); control frames (ping, pong, close) may be
/// interleaved inside a fragmented message and are returned as soon as they complete. Payloads are
/// unmasked in place 8 bytes at a time, text is UTF-8 checked as it arrives, and the message size limit is
/// enforced from each frame header before its payload is buffered.
///
/// Violations end the stream with a `WebSocketFailure`: close code 1002 for framing errors, 1007 for
/// invalid UTF-8 (text or Close reason), 1009 for a message over `maxMessageBytes`.
///
/// ## Thread safety
/// A value type; keep one reader per connection and call it from one thread (the event loop) at a time.
public struct WebSocketReader: Sendable {
    let role: WebSocketRole
    let maxMessageBytes: Int
    /// Set after a failure or a Close frame; all later input is ignored.
    var isFinished = false

    /// Header bytes of the frame being read (2–14), while `frame` is nil.
    var headerBytes: [UInt8] = []
    /// The frame whose payload is being read, or nil while reading a header.
    var frame: WebSocketFrameHeader?
    /// Payload bytes of `frame` consumed so far (also the masking offset).
    var frameConsumed = 0

    /// The opcode (text or binary) of the message being assembled, nil between messages.
    var messageOpcode: WebSocketOpcode?
    /// Unmasked payload of the message being assembled (all fragments so far).
    var messageBytes: [UInt8] = []
    /// UTF-8 state across the fragments of a text message.
    var textValidator = UTF8Validator()
    /// Unmasked payload of the control frame being read (≤ 125 bytes).
    var controlBytes: [UInt8] = []

    /// Creates a reader.
    /// - Parameters:
    ///   - role: `.server` when reading a client's frames (which must be masked), `.client` otherwise (§5.1).
    ///   - maxMessageBytes: the largest message (sum of its fragments' payloads) accepted, in bytes, ≥ 0.
    ///     Larger messages fail with close code 1009 (§7.4.1).
    public init(role: WebSocketRole, maxMessageBytes: Int) {
        precondition(maxMessageBytes >= 0, "maxMessageBytes must not be negative")
        self.role = role
        self.maxMessageBytes = maxMessageBytes
        headerBytes.reserveCapacity(WebSocketFrameHeader.maxLength)
        controlBytes.reserveCapacity(125)
    }

    /// Messages completed by these bytes, in order, and the first protocol failure if any. After a failure or a
    /// `.close` message, later input is ignored (empty result).
    ///
    /// `bytes` may hold any part of the stream: a partial header, several frames, a frame split anywhere.
    /// Nothing is kept pointing into `bytes` after the call returns.
    public mutating func read(_ bytes: UnsafeRawBufferPointer) -> WebSocketReadResult {
        var result = WebSocketReadResult()
        var index = 0
        do {
            while let output = try next(bytes, at: &index) {
                switch output {
                case .text(let payload): result.messages.append(.text(String(decoding: payload, as: UTF8.self)))
                case .binary(let payload): result.messages.append(.binary(payload))
                case .ping(let payload): result.messages.append(.ping(payload))
                case .pong(let payload): result.messages.append(.pong(payload))
                case .close(let code, let reason): result.messages.append(.close(code: code, reason: reason))
                }
            }
        } catch {
            result.failure = error
        }
        return result
    }

    /// What ``next(_:at:)`` completed: like ``WebSocketMessage``, but a text message stays the checked UTF-8 bytes
    /// it arrived as (no `String` is made; ``WebSocketConnection`` delivers bytes).
    enum Output {
        case text([UInt8])
        case binary([UInt8])
        case ping([UInt8])
        case pong([UInt8])
        case close(code: UInt16?, reason: String)
    }

    /// Consumes `bytes[index...]` up to the end of the next complete message or control frame and returns it, or
    /// nil when the input ran out first (or the reader is finished: then `index` is moved to the end, the input
    /// ignored). After a `.close`, the reader is finished.
    /// - Throws: the first protocol violation (1002, 1007 or 1009); the reader is finished then.
    mutating func next(_ bytes: UnsafeRawBufferPointer, at index: inout Int) throws(WebSocketFailure) -> Output? {
        do {
            while !isFinished {
                if frame == nil {
                    guard try consumeHeader(bytes, at: &index) else { return nil }
                }
                switch try consumePayload(bytes, at: &index) {
                case .needMoreInput: return nil
                case .fragment: continue
                case .complete(let output): return output
                }
            }
        } catch {
            finish()
            index = bytes.count
            throw error
        }
        index = bytes.count
        return nil
    }

    /// Stops reading for good and drops buffered data.
    mutating func finish() {
        isFinished = true
        frame = nil
        messageOpcode = nil
        messageBytes = []
        controlBytes = []
        headerBytes = []
    }

    /// A 1002 failure with `reason`.
    static func protocolError(_ reason: String) -> WebSocketFailure {
        WebSocketFailure(closeCode: .protocolError, reason: reason)
    }
}
