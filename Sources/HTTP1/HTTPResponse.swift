/// A response to serialize onto an HTTP/1.1 connection (RFC 9112 §4, §6).
public struct HTTPResponse: Sendable {
    /// The status code, e.g. 200 (RFC 9110 §15).
    public var status: Int
    /// Fields to send, in order. `Content-Length` is computed by ``serialized(keepAlive:headOnly:)``, so a
    /// `Content-Length` given here is ignored; so is `Connection` when the connection is closing.
    public var fields: [HTTPField]
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The status code (100–599).
    ///   - fields: Fields to send (without `Content-Length`).
    ///   - body: The body bytes.
    public init(status: Int, fields: [HTTPField] = [], body: [UInt8] = []) {
        self.status = status
        self.fields = fields
        self.body = body
    }

    /// The response as bytes: status line `HTTP/1.1 <status> <reason>` (reason phrase from RFC 9110 §15),
    /// the fields, `Content-Length` (always, computed from ``body``), `Connection: close` when `keepAlive`
    /// is false, an empty line, and the body.
    ///
    /// Responses that cannot have content (1xx and 204, RFC 9110 §8.6, §15.2, §15.3.5) get neither a
    /// `Content-Length` nor a body. CR, LF and NUL inside field names or values become spaces, so a field
    /// can never split the response.
    ///
    /// - Parameters:
    ///   - keepAlive: Whether the connection stays open after this response.
    ///   - headOnly: For a `HEAD` request: leave the body out, but `Content-Length` still gives its size in bytes.
    /// - Returns: The bytes to write.
    public func serialized(keepAlive: Bool, headOnly: Bool = false) -> [UInt8] {
        let mayHaveContent = status >= 200 && status != 204
        let sendsBody = mayHaveContent && !headOnly
        var out: [UInt8] = []
        out.reserveCapacity(64 + fields.count * 32 + (sendsBody ? body.count : 0))
        out.append(contentsOf: "HTTP/1.1 \(status) \(httpReasonPhrase(status))\r\n".utf8)
        for field in fields {
            if asciiCaseInsensitiveEqual(field.name.utf8, "content-length".utf8) { continue }
            if !keepAlive, asciiCaseInsensitiveEqual(field.name.utf8, "connection".utf8) { continue }
            appendFieldLine(name: field.name, value: field.value, to: &out)
        }
        if mayHaveContent {
            appendFieldLine(name: "Content-Length", value: String(body.count), to: &out)
        }
        if !keepAlive {
            appendFieldLine(name: "Connection", value: "close", to: &out)
        }
        out.append(contentsOf: "\r\n".utf8)
        if sendsBody { out.append(contentsOf: body) }
        return out
    }
}

/// Appends `name: value\r\n`, with CR, LF and NUL replaced by spaces.
private func appendFieldLine(name: String, value: String, to out: inout [UInt8]) {
    appendSanitized(name, to: &out)
    out.append(contentsOf: ": ".utf8)
    appendSanitized(value, to: &out)
    out.append(contentsOf: "\r\n".utf8)
}

/// Appends the UTF-8 of `text`, turning CR, LF and NUL into spaces.
private func appendSanitized(_ text: String, to out: inout [UInt8]) {
    for byte in text.utf8 {
        out.append(byte == 0x0D || byte == 0x0A || byte == 0 ? UInt8(ascii: " ") : byte)
    }
}
