/// The pieces of the request being parsed, gathered across llhttp callbacks.
///
/// llhttp may deliver any span (target, field name, field value, body) in several pieces when it straddles
/// two `feed` calls, so every span is appended, and a field is committed only at value-complete.
struct RequestAccumulator {
    /// Bytes of the request-target so far.
    var target: [UInt8] = []
    /// Bytes of the version after `HTTP/` so far, e.g. `"1.1"`.
    var version: [UInt8] = []
    /// Bytes of the current field name.
    var fieldName: [UInt8] = []
    /// Bytes of the current field value (not yet trimmed).
    var fieldValue: [UInt8] = []
    /// Committed header fields.
    var fields = HTTPFields()
    /// Decoded body bytes so far.
    var body: [UInt8] = []
    /// Head bytes counted against ``HTTPParserLimits/maxHeaderBytes``.
    var headBytes = 0
    /// The request head, set at headers-complete; non-nil means fields now are trailers.
    var head: HTTPRequest?

    /// Turns the current name and value into a field (or drops it when it is a trailer) and clears both buffers.
    mutating func commitField() {
        if head == nil {
            let name = String(decoding: fieldName, as: UTF8.self)
            let value = String(decoding: trimmingOWS(fieldValue), as: UTF8.self)
            fields.append(HTTPField(name: name, value: value))
        }
        fieldName.removeAll(keepingCapacity: true)
        fieldValue.removeAll(keepingCapacity: true)
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
