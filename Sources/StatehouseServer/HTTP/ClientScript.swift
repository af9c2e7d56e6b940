import HTTP1

/// The browser client, `clients/js/statehouse.js`, served at `GET /client/statehouse.js` (and `HEAD`).
///
/// The bytes are compiled into the binary (SwiftPM `embedInCode`, `PackageResources.statehouse_js`): no file is read
/// at run time, so the script always matches the server that serves it. The route is public (no `auth`), like
/// `/healthz`: the file holds no data. CORS fields are added by the session for an allowed `Origin`, as on every
/// response.
///
/// Response: 200 `text/javascript; charset=utf-8` with a strong `ETag` and `Cache-Control: no-cache`, or 304 when
/// `If-None-Match` lists the tag (``StaticAsset``).
enum ClientScript {
    /// The script and its tag, computed once.
    static let asset = StaticAsset(bytes: PackageResources.statehouse_js, contentType: "text/javascript; charset=utf-8")

    /// The answer to a GET or HEAD, given the request's `If-None-Match` field (nil when absent).
    static func response(ifNoneMatch: String?) -> HTTPResponse { asset.response(ifNoneMatch: ifNoneMatch) }
}
