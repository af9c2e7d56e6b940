/// A response to serialize onto an HTTP/1.1 connection (RFC 9112 §4, §6).
public struct HTTPResponse: Sendable {
    /// The status code, e.g. 200 (RFC 9110 §15).
    public var status: Int
    /// Fields to send, in order. `Content-Length` is computed by ``serialized(keepAlive:headOnly:)``, so a
    /// `Content-Length` given here is ignored; so is `Connection: keep-alive` (or `close`) when the connection is
    /// closing. Any other `Connection` field (e.g. `Upgrade`) is sent beside `Connection: close`.
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
    /// Responses that cannot have content (1xx, 204 and 304; RFC 9110 §8.6, §15.2, §15.3.5, §15.4.5) get neither a
    /// `Content-Length` nor a body. CR, LF and NUL inside field names or values become spaces, so a field
    /// can never split the response.
    ///
    /// - Parameters:
    ///   - keepAlive: Whether the connection stays open after this response.
    ///   - headOnly: For a `HEAD` request: leave the body out, but `Content-Length` still gives its size in bytes.
    /// - Returns: The bytes to write, in one allocation of exactly their size.
    public func serialized(keepAlive: Bool, headOnly: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = []
        serialize(into: &bytes, keepAlive: keepAlive, headOnly: headOnly)
        return bytes
    }

    /// Writes the bytes of ``serialized(keepAlive:headOnly:)`` straight into memory that `make` provides, e.g. a
    /// socket write buffer, with no array in between.
    ///
    /// - Parameters:
    ///   - keepAlive: Whether the connection stays open after this response.
    ///   - headOnly: For a `HEAD` request: leave the body out, but `Content-Length` still gives its size in bytes.
    ///   - extraField: One more field, written after ``fields`` (e.g. the `X-Request-Id` every response of a server
    ///     carries), without copying ``fields`` to append it; nil for none.
    ///   - make: Called once with the size of the response in bytes and a function that writes exactly that many
    ///     bytes at the address it is given; `make` provides the memory, calls the function, and returns the result.
    /// - Returns: What `make` returns.
    public func serialized<Output>(
        keepAlive: Bool, headOnly: Bool = false, extraField: HTTPField? = nil,
        writingWith make: (_ byteCount: Int, _ write: (UnsafeMutableRawPointer) -> Void) -> Output
    ) -> Output {
        let layout = ResponseLayout(self, keepAlive: keepAlive, headOnly: headOnly, extraField: extraField)
        return make(layout.byteCount) { start in
            let bytes = start.bindMemory(to: UInt8.self, capacity: layout.byteCount)
            layout.writeHead(self, extraField: extraField, to: bytes)
            if layout.sendsBody { _ = body.withUnsafeBufferPointer { copy($0, to: bytes + layout.headByteCount) } }
        }
    }

    /// Appends the bytes of ``serialized(keepAlive:headOnly:)`` to `output`, e.g. to gather several pipelined
    /// responses into one write.
    ///
    /// `output` grows by the usual array growth policy, so appending response after response costs amortised
    /// linear time.
    ///
    /// - Parameters:
    ///   - output: The bytes to append to; its existing bytes are kept.
    ///   - keepAlive: Whether the connection stays open after this response.
    ///   - headOnly: For a `HEAD` request: leave the body out, but `Content-Length` still gives its size in bytes.
    public func serialize(into output: inout [UInt8], keepAlive: Bool, headOnly: Bool = false) {
        let layout = ResponseLayout(self, keepAlive: keepAlive, headOnly: headOnly)
        let needed = output.count + layout.byteCount
        if output.capacity < needed { output.reserveCapacity(output.isEmpty ? needed : max(needed, 2 * output.capacity)) }
        // The head is written to scratch memory (on the stack when small) and copied in one piece, as is the body.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: layout.headByteCount) { head in
            layout.writeHead(self, extraField: nil, to: head.baseAddress!)
            output.append(contentsOf: UnsafeBufferPointer(head))
        }
        if layout.sendsBody { output.append(contentsOf: body) }
    }
}
