/// The shape of one serialized ``HTTPResponse``: which parts it has and its exact size in bytes, worked out
/// before writing so the bytes go into one buffer of the right size (RFC 9112 §4, §6).
struct ResponseLayout {
    /// Whether the status allows content, so `Content-Length` is sent (not 1xx, 204 or 304; RFC 9110 §8.6: a 304's
    /// `Content-Length` would have to give the size of the 200's content, which this response does not know).
    let mayHaveContent: Bool
    /// Whether the body bytes follow the head (content allowed and not a response to `HEAD`).
    let sendsBody: Bool
    /// Whether the connection closes after this response (`Connection: close`; see ``omits(_:)``).
    let closes: Bool
    /// The status line with its CRLF.
    let statusLine: [UInt8]
    /// The size of the status line, fields and empty line, in bytes.
    private(set) var headByteCount = 0
    /// The total size with the body (when sent), in bytes.
    var byteCount: Int { headByteCount + bodyByteCount }
    /// The size of the body sent, in bytes: 0 when ``sendsBody`` is false.
    let bodyByteCount: Int
    /// The size of the body, in bytes, sent or not (`Content-Length`).
    let contentLength: Int

    /// `Connection: close` and its line end.
    private static let connectionClose: StaticString = "Connection: close\r\n"
    /// The start of the `Content-Length` line.
    private static let contentLengthPrefix: StaticString = "Content-Length: "

    /// - Parameters:
    ///   - extraField: a field written after the response's own (not checked by ``omits(_:)``).
    ///   - bodyByteCount: the body's size when an ``HTTPBodyWriter`` writes it (nil: `response.body`'s).
    init(
        _ response: HTTPResponse, keepAlive: Bool, headOnly: Bool, extraField: HTTPField? = nil,
        bodyByteCount writtenCount: Int? = nil
    ) {
        mayHaveContent = response.status >= 200 && response.status != 204 && response.status != 304
        sendsBody = mayHaveContent && !headOnly
        closes = !keepAlive
        statusLine = StatusLines.line(for: response.status)
        let contentLength = writtenCount ?? response.body.count
        self.contentLength = contentLength
        bodyByteCount = sendsBody ? contentLength : 0
        var byteCount = statusLine.count + 2
        for field in response.fields where !omits(field) { byteCount += Self.byteCount(of: field) }
        if let field = extraField { byteCount += Self.byteCount(of: field) }
        if mayHaveContent {
            byteCount += Self.contentLengthPrefix.utf8CodeUnitCount + decimalDigitCount(UInt64(contentLength)) + 2
        }
        if closes { byteCount += Self.connectionClose.utf8CodeUnitCount }
        headByteCount = byteCount
    }

    /// Whether `field` is left out: `Content-Length` always (it is computed); when closing, a `Connection` field
    /// saying `keep-alive` or `close` (the `Connection: close` line replaces it). Other `Connection` fields stay, e.g.
    /// `Connection: Upgrade` of a 426 (RFC 9110 §7.8 asks for it beside `Upgrade`; §5.3 reads several lines as one
    /// list).
    @inline(__always)  // measured: all of them together, 1,040 instructions per HTTP request (BENCHMARKS.md, issue 14)
    func omits(_ field: HTTPField) -> Bool {
        switch field.name.utf8.count {
        case 14: asciiCaseInsensitiveEqual(field.name, lowercase: "content-length")
        case 10:
            closes && asciiCaseInsensitiveEqual(field.name, lowercase: "connection")
                && (asciiCaseInsensitiveEqual(field.value, lowercase: "keep-alive")
                    || asciiCaseInsensitiveEqual(field.value, lowercase: "close"))
        default: false
        }
    }

    /// The bytes of `field`'s line: `name: value` and CRLF.
    private static func byteCount(of field: HTTPField) -> Int { field.name.utf8.count + field.value.utf8.count + 4 }

    /// Writes `field`'s line at `cursor` (CR, LF and NUL in its name or value as spaces, ``copySanitized(_:to:)``)
    /// and returns the address after it.
    @inline(__always)
    private static func write(_ field: HTTPField, to cursor: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var cursor = copySanitized(field.name, to: cursor)
        cursor = copy(": ", to: cursor)
        cursor = copySanitized(field.value, to: cursor)
        return copy("\r\n", to: cursor)
    }

    /// Writes the head of the response (everything before the body) to `start`, which has room for
    /// ``headByteCount`` bytes.
    func writeHead(_ response: HTTPResponse, extraField: HTTPField?, to start: UnsafeMutablePointer<UInt8>) {
        var cursor = start
        cursor = statusLine.withUnsafeBufferPointer { copy($0, to: cursor) }
        for field in response.fields where !omits(field) { cursor = Self.write(field, to: cursor) }
        if let field = extraField { cursor = Self.write(field, to: cursor) }
        if mayHaveContent {
            cursor = copy(Self.contentLengthPrefix, to: cursor)
            cursor = writeDecimal(UInt64(contentLength), to: cursor)
            cursor = copy("\r\n", to: cursor)
        }
        if closes { cursor = copy(Self.connectionClose, to: cursor) }
        cursor = copy("\r\n", to: cursor)
        precondition(cursor - start == headByteCount, "response layout miscounted")
    }
}
