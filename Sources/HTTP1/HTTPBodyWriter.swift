/// A response body written straight into the response's memory by its producer, instead of given as bytes: e.g. a
/// JSON envelope around bytes many responses share, so the body is never assembled in an array of its own.
///
/// ## Thread safety
/// Used on the thread that serializes the response; conformers are usually small value types.
public protocol HTTPBodyWriter {
    /// The body's size in bytes (the `Content-Length`, RFC 9110 §8.6).
    var byteCount: Int { get }
    /// Writes exactly ``byteCount`` bytes starting at `start`.
    func write(to start: UnsafeMutablePointer<UInt8>)
}

extension HTTPResponse {
    /// ``serialized(keepAlive:headOnly:extraField:writingWith:)`` with `body` written by `writer` in place of
    /// ``body`` (which is ignored): one buffer for the head and the body, and no array in between.
    ///
    /// - Parameters:
    ///   - keepAlive: Whether the connection stays open after this response.
    ///   - headOnly: For a `HEAD` request: leave the body out, but `Content-Length` still gives its size in bytes.
    ///   - extraField: One more field, written after ``fields``; nil for none.
    ///   - writer: Writes the body; asked for its ``HTTPBodyWriter/byteCount`` once.
    ///   - make: Called once with the size of the response in bytes and a function that writes exactly that many
    ///     bytes at the address it is given; `make` provides the memory, calls the function, and returns the result.
    /// - Returns: What `make` returns.
    public func serialized<Body: HTTPBodyWriter, Output>(
        keepAlive: Bool, headOnly: Bool = false, extraField: HTTPField? = nil, body writer: Body,
        writingWith make: (_ byteCount: Int, _ write: (UnsafeMutableRawPointer) -> Void) -> Output
    ) -> Output {
        let layout = ResponseLayout(
            self, keepAlive: keepAlive, headOnly: headOnly, extraField: extraField, bodyByteCount: writer.byteCount)
        return make(layout.byteCount) { start in
            let bytes = start.bindMemory(to: UInt8.self, capacity: layout.byteCount)
            layout.writeHead(self, extraField: extraField, to: bytes)
            if layout.sendsBody { writer.write(to: bytes + layout.headByteCount) }
        }
    }
}

/// Bytes are the plain body: copied as they are.
extension Array: HTTPBodyWriter where Element == UInt8 {
    public var byteCount: Int { count }

    public func write(to start: UnsafeMutablePointer<UInt8>) {
        _ = withUnsafeBufferPointer { copy($0, to: start) }
    }
}
