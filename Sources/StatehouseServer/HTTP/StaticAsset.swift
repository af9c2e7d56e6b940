import HTTP1

/// A file compiled into the binary (SwiftPM `embedInCode`) and served as it is: the browser client
/// (``ClientScript``) and the inspector's page, script and style sheet (``InspectorAssets``).
///
/// Response: 200 with `contentType`, a strong `ETag` (the first 16 bytes of the SHA-256 of the bytes, hex),
/// `Cache-Control: no-cache` (a browser revalidates each time and gets a 304 while unchanged) and `fields`; 304 with
/// the `ETag` (and `fields`) and no body when `If-None-Match` lists it or is `*` (RFC 9110 §13.1.2, §15.4.5).
struct StaticAsset: Sendable {
    /// The file's bytes, as built.
    let bytes: [UInt8]
    /// The `Content-Type` field's value, e.g. `text/html; charset=utf-8`.
    let contentType: String
    /// `"<32 hex digits>"`.
    let entityTag: String
    /// Fields every answer carries besides the caching ones (e.g. the page's `Content-Security-Policy`).
    let fields: [HTTPField]

    init(bytes: [UInt8], contentType: String, fields: [HTTPField] = []) {
        self.bytes = bytes
        self.contentType = contentType
        self.fields = fields
        let hex = AccessPolicy.sha256(bytes).prefix(16).map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }
        entityTag = "\"" + hex.joined() + "\""
    }

    /// The answer to a GET or HEAD, given the request's `If-None-Match` field (nil when absent).
    func response(ifNoneMatch: String?) -> HTTPResponse {
        let caching = [HTTPField(name: "ETag", value: entityTag), HTTPField(name: "Cache-Control", value: "no-cache")]
        if let ifNoneMatch, HTTPSession.matches(ifNoneMatch, entityTag) {
            return HTTPResponse(status: 304, fields: caching + fields)
        }
        return HTTPResponse(
            status: 200, fields: [HTTPField(name: "Content-Type", value: contentType)] + caching + fields, body: bytes)
    }
}
