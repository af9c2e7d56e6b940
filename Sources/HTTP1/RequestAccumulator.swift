/// The pieces of the request being parsed, gathered across llhttp callbacks.
///
/// llhttp may deliver any span (target, field name, field value, body) in several pieces when it straddles
/// two `feed` calls, so every span is appended, and a field is committed only at value-complete.
///
/// One accumulator serves every request of a connection. ``reset()`` empties the span buffers but keeps their
/// storage, and the strings of the previous request are kept to be reused: a field name or value, or the
/// target, whose bytes equal the previous request's at the same place becomes the same string without decoding
/// or allocating again (clients tend to send the same fields in the same order on every request). The field list
/// itself is reused the same way: fields are compared in place with the previous request's list, which is written
/// (and so copied, while the previous request still shares it) only where the new request differs. A small body
/// equal to the previous request's is handed out as the previous request's array.
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
    /// The header fields: the first ``fieldCount`` are this request's, any after them the previous request's (kept
    /// to be compared by position). Shared with the request from headers-complete on, and with the previous
    /// request until that is gone, so it is only written where a field differs (copy on write).
    private(set) var fields: [HTTPField] = []
    /// How many fields of this request are committed.
    private(set) var fieldCount = 0
    /// The target of the previous request, for reuse when the next one has the same bytes.
    var previousTarget: RequestTarget?
    /// The value of the first `Expect` field, if any (RFC 9110 §10.1.1).
    var expect: String?
    /// Decoded body bytes so far; handed to the request at message-complete (or emptied, keeping its storage,
    /// when ``previousBody`` is handed out instead).
    var body: [UInt8] = []
    /// The body of the previous request when it had at most ``reusedBodyLimit`` bytes (shared with it), else empty.
    private var previousBody: [UInt8] = []
    /// The largest body, in bytes, kept for comparison with the next request's.
    static let reusedBodyLimit = 512
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
        fieldCount = 0
        expect = nil
        if !body.isEmpty { body.removeAll(keepingCapacity: true) }
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
            let position = fieldCount
            let nameBytes = fieldName.bytes
            let valueBytes = UnsafeBufferPointer(rebasing: trimmingOWS(fieldValue.bytes))
            if position < fields.count {
                // Written only where it differs: an equal field leaves the (maybe shared) list untouched.
                if !utf8(of: fields[position].name, equals: nameBytes) {
                    fields[position].name = String(decoding: nameBytes, as: UTF8.self)
                }
                if !utf8(of: fields[position].value, equals: valueBytes) {
                    fields[position].value = String(decoding: valueBytes, as: UTF8.self)
                }
            } else {
                if fields.capacity == 0 { fields.reserveCapacity(4) }
                fields.append(HTTPField(
                    name: String(decoding: nameBytes, as: UTF8.self), value: String(decoding: valueBytes, as: UTF8.self)))
            }
            if expect == nil, asciiCaseInsensitiveEqual(nameBytes, lowercase: "expect") { expect = fields[position].value }
            fieldCount += 1
        }
        fieldName.removeAll()
        fieldValue.removeAll()
    }

    /// The fields of this request (the previous request's extra fields dropped), to share with its head.
    mutating func takeFields() -> HTTPFields {
        if fields.count > fieldCount { fields.removeSubrange(fieldCount...) }
        return HTTPFields(fields)
    }

    /// The body of this request: the previous request's array when the bytes are the same (this body's storage is
    /// then kept for the next request), else this body's array.
    mutating func takeBody() -> [UInt8] {
        guard !body.isEmpty else { return [] }
        if body.count == previousBody.count, Self.sameBytes(body, previousBody) {
            if body.capacity > SpanBuffer.keptCapacity { body = [] } else { body.removeAll(keepingCapacity: true) }
            return previousBody
        }
        var taken: [UInt8] = []
        swap(&taken, &body)
        previousBody = taken.count <= Self.reusedBodyLimit ? taken : []
        return taken
    }

    /// Whether two arrays of the same count hold the same bytes.
    private static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in bytesEqual(a.baseAddress!, b.baseAddress!, count: a.count) }
        }
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
