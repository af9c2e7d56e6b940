/// The pieces of the request being parsed, gathered across llhttp callbacks.
///
/// llhttp may deliver any span (target, field name, field value, body) in several pieces when it straddles
/// two `feed` calls, so every span is appended, and a field is committed only at value-complete.
///
/// One accumulator serves every request of a connection. ``reset()`` empties the span buffers but keeps their
/// storage, and the strings of the previous request are kept to be reused: a field name or value, or the
/// target, whose bytes equal the previous request's at the same place becomes the same string without decoding
/// or allocating again (clients tend to send the same fields in the same order on every request).
///
/// ## Thread safety
/// Confined to the thread of the parser that owns it.
struct RequestAccumulator: ~Copyable {
    /// Bytes of the request-target so far.
    var target = SpanBuffer()
    /// Bytes of the version after `HTTP/` so far, e.g. `"1.1"`.
    var version = SpanBuffer()
    /// Bytes of the current field name.
    var fieldName = SpanBuffer()
    /// Bytes of the current field value (not yet trimmed).
    var fieldValue = SpanBuffer()
    /// Committed header fields; shared with the request from headers-complete on.
    var fields: [HTTPField] = []
    /// The fields of the previous request (shared with it, never changed here), for reuse by position.
    var previousFields: [HTTPField] = []
    /// The target of the previous request, for reuse when the next one has the same bytes.
    var previousTarget: RequestTarget?
    /// The value of the first `Expect` field, if any (RFC 9110 §10.1.1).
    var expect: String?
    /// Decoded body bytes so far; handed to the request at message-complete.
    var body: [UInt8] = []
    /// Head bytes counted against ``HTTPParserLimits/maxHeaderBytes``.
    var headBytes = 0
    /// The request head, set at headers-complete and moved out at message-complete.
    private(set) var head: HTTPRequest?
    /// Whether ``head`` is set: fields from now on are trailers. (A flag, because comparing an optional
    /// `HTTPRequest` with `nil` copies it.)
    private(set) var hasHead = false

    /// Forgets the previous request: empties every buffer and clears the counters.
    mutating func reset() {
        target.removeAll()
        version.removeAll()
        fieldName.removeAll()
        fieldValue.removeAll()
        if !fields.isEmpty {
            previousFields = fields
            fields = []
        }
        expect = nil
        body = []
        headBytes = 0
        if hasHead {
            head = nil
            hasHead = false
        }
    }

    /// Moves the head out (through the slot's address: no retain and release), leaving `nil`.
    mutating func takeHead() -> HTTPRequest? {
        hasHead = false
        return withUnsafeMutablePointer(to: &head) { slot in
            let taken = slot.move()
            slot.initialize(to: nil)
            return taken
        }
    }

    /// Stores the head, replacing any previous one.
    mutating func setHead(_ request: consuming HTTPRequest) {
        head = consume request
        hasHead = true
    }

    /// The request-target, reusing the previous request's strings when the bytes are the same.
    mutating func takeTarget() -> RequestTarget {
        let bytes = target.bytes
        if let previousTarget, utf8(of: previousTarget.target, equals: bytes) { return previousTarget }
        let decoded = RequestTarget(bytes: bytes)
        previousTarget = decoded
        return decoded
    }

    /// Turns the current name and value into a field (or drops it when it is a trailer) and clears both buffers.
    mutating func commitField() {
        if !hasHead {
            if fields.capacity == 0 { fields.reserveCapacity(max(previousFields.count, 4)) }
            let position = fields.count
            let nameBytes = fieldName.bytes
            let valueBytes = UnsafeBufferPointer(rebasing: trimmingOWS(fieldValue.bytes))
            var field: HTTPField
            if position < previousFields.count {
                field = previousFields[position]
                if !utf8(of: field.name, equals: nameBytes) { field.name = String(decoding: nameBytes, as: UTF8.self) }
                if !utf8(of: field.value, equals: valueBytes) {
                    field.value = String(decoding: valueBytes, as: UTF8.self)
                }
            } else {
                field = HTTPField(
                    name: String(decoding: nameBytes, as: UTF8.self), value: String(decoding: valueBytes, as: UTF8.self))
            }
            if expect == nil, asciiCaseInsensitiveEqual(nameBytes, lowercase: "expect") { expect = field.value }
            fields.append(field)
        }
        fieldName.removeAll()
        fieldValue.removeAll()
    }
}

/// Which head span a piece of llhttp data belongs to.
enum HeadSpan {
    case method, target, version, fieldName, fieldValue
}

/// What a callback tells llhttp to do next.
enum CallbackVerdict {
    /// Keep parsing.
    case proceed
    /// Stop with an error; the failure is already recorded on the parser.
    case fail
    /// Stop without error (used after a request that ends the connection).
    case pause
}
