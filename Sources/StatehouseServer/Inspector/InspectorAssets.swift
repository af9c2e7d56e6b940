import HTTP1

/// The inspector's static files (docs/operations.md, *Inspector*), compiled into the binary like the browser client
/// (SwiftPM `embedInCode`: `Inspector/inspector.html`, `.js`, `.css`): `GET /inspector` (the page),
/// `/inspector/inspector.js` (its ES module, which imports `/client/statehouse.js`) and `/inspector/inspector.css`.
/// Public like `/client/statehouse.js` (they hold no data); the page's data comes from
/// `GET /inspector/overview` and the store API, which follow `auth`.
///
/// The page's answers carry a `Content-Security-Policy` that allows only this server's own scripts, styles and
/// connections (no inline script, no other origin, no framing), `X-Content-Type-Options: nosniff` and
/// `Referrer-Policy: no-referrer` (the page keeps a bearer token in `sessionStorage`).
enum InspectorAssets {
    /// Which file.
    enum File: Equatable, Sendable {
        /// `/inspector`: the HTML page.
        case page
        /// `/inspector/inspector.js`: the page's ES module.
        case script
        /// `/inspector/inspector.css`.
        case styleSheet
    }

    /// `default-src 'none'`, then only what the page uses, from this origin (`'self'` covers `ws:`/`wss:` to the
    /// same host and port, CSP Level 3 §6.7.2.8).
    static let securityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    private static let hardening = [
        HTTPField(name: "X-Content-Type-Options", value: "nosniff"),
        HTTPField(name: "Referrer-Policy", value: "no-referrer"),
    ]

    static let page = StaticAsset(
        bytes: PackageResources.inspector_html, contentType: "text/html; charset=utf-8",
        fields: [HTTPField(name: "Content-Security-Policy", value: securityPolicy)] + hardening)
    static let script = StaticAsset(
        bytes: PackageResources.inspector_js, contentType: "text/javascript; charset=utf-8", fields: hardening)
    static let styleSheet = StaticAsset(
        bytes: PackageResources.inspector_css, contentType: "text/css; charset=utf-8", fields: hardening)

    static func asset(_ file: File) -> StaticAsset {
        switch file {
        case .page: page
        case .script: script
        case .styleSheet: styleSheet
        }
    }
}
