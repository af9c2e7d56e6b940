/// Size limits one ``HTTPRequestParser`` enforces on every request.
public struct HTTPParserLimits: Sendable {
    /// The most bytes of request line plus header fields, in bytes, before the request fails with 431.
    ///
    /// Counted as the bytes llhttp reports for the method, request-target, version, field names and field
    /// values (separators and line endings are not counted), checked as they arrive, so the parser never
    /// holds more than this much head data. Trailer fields of a chunked body count against the same budget.
    public var maxHeaderBytes: Int
    /// The most body bytes (after chunked decoding) before the request fails with 413.
    ///
    /// A `Content-Length` above it fails as soon as the head is complete, before any body byte is read.
    public var maxBodyBytes: Int
    /// The most header (and trailer) field lines in one request before it fails with 431.
    public var maxHeaderFields: Int

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maxHeaderBytes: Request line plus fields, in bytes (see ``maxHeaderBytes``).
    ///   - maxBodyBytes: Decoded body, in bytes.
    ///   - maxHeaderFields: Field lines per request (default 100).
    public init(maxHeaderBytes: Int, maxBodyBytes: Int, maxHeaderFields: Int = 100) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderFields = maxHeaderFields
    }
}
