import HTTP1

/// The browser client, `clients/js/statehouse.js`, served at `GET /client/statehouse.js` (and `HEAD`).
///
/// The bytes are compiled into the binary (SwiftPM `embedInCode`, `PackageResources.statehouse_js`): no file is read
/// at run time, so the script always matches the server that serves it. The route is public (no `auth`), like
/// `/healthz`: the file holds no data. CORS fields are added by the session for an allowed `Origin`, as on every
/// response.
///
/// Response: 200 `text/javascript; charset=utf-8` with a strong `ETag` (the first 16 bytes of the SHA-256 of the
/// bytes, hex) and `Cache-Control: no-cache` (a browser revalidates each time and gets a 304 while unchanged); 304
/// with the `ETag` and no body when `If-None-Match` lists it or is `*` (RFC 9110 §13.1.2, §15.4.5).
enum ClientScript {
    /// The script's bytes (UTF-8), as built.
    static var bytes: [UInt8] { PackageResources.statehouse_js }

    /// `"<32 hex digits>"`, computed once.
    static let entityTag: String = {
        let digest = AccessPolicy.sha256(PackageResources.statehouse_js).prefix(16)
        let hex = digest.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }
        return "\"" + hex.joined() + "\""
    }()

    /// The answer to a GET or HEAD, given the request's `If-None-Match` field (nil when absent).
    static func response(ifNoneMatch: String?) -> HTTPResponse {
        let fields = [
            HTTPField(name: "ETag", value: entityTag),
            HTTPField(name: "Cache-Control", value: "no-cache"),
        ]
        if let ifNoneMatch, HTTPSession.matches(ifNoneMatch, entityTag) {
            return HTTPResponse(status: 304, fields: fields)
        }
        return HTTPResponse(
            status: 200, fields: [HTTPField(name: "Content-Type", value: "text/javascript; charset=utf-8")] + fields,
            body: bytes)
    }
}
