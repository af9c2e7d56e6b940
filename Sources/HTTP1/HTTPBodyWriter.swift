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

/// Writes a body left to right into memory sized beforehand (an ``HTTPBodyWriter``'s `write(to:)`), with the same
/// byte writers the response head uses.
public struct HTTPBodyCursor {
    /// Where the next byte goes.
    public private(set) var position: UnsafeMutablePointer<UInt8>

    public init(_ start: UnsafeMutablePointer<UInt8>) { position = start }

    /// Writes the UTF-8 of `text`.
    public mutating func write(_ text: StaticString) { position = copy(text, to: position) }

    /// Writes `bytes`.
    public mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) { position = copy(bytes, to: position) }

    /// Writes `bytes`.
    public mutating func write(_ bytes: [UInt8]) { position = bytes.withUnsafeBufferPointer { copy($0, to: position) } }

    /// Writes one byte.
    public mutating func write(_ byte: UInt8) {
        position.initialize(to: byte)
        position += 1
    }

    /// Writes `value` in decimal digits, without leading zeros.
    public mutating func writeDecimal(_ value: UInt64) { position = HTTP1.writeDecimal(value, to: position) }

    /// How many digits ``writeDecimal(_:)`` writes for `value`.
    public static func decimalDigitCount(_ value: UInt64) -> Int { HTTP1.decimalDigitCount(value) }
}
