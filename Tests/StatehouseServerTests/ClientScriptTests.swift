import Foundation
import StatehouseServer
import StatehouseTestClients
import Testing

/// `GET /client/statehouse.js` (the browser client compiled into the server), and what a browser on another origin
/// needs from the API: CORS fields on the SSE stream, `Idempotency-Key` through the preflight, `WWW-Authenticate`
/// exposed to scripts (Fetch §3.2).
extension ServerTests {
    @Suite struct ClientScriptTests {
        static let origin = "http://127.0.0.1:8000"
        static let token = "browser-token-0123456789"

        /// `auth` (one read/write token for every store) and `cors` allowing ``origin``.
        static func browserSetup(_ configuration: inout ServerConfiguration) {
            configuration.auth = AccessPolicy(entries: [
                (AccessPolicy.sha256(Array(token.utf8)), .init(stores: ["*"], scopes: [.read, .write])),
            ])
            configuration.cors = CORSPolicy(allowedOrigins: [origin])
        }

        /// The served bytes are clients/js/statehouse.js, byte for byte (Sources/StatehouseServer/Client/statehouse.js
        /// is a symlink to it; this catches a copy that drifted or a link SwiftPM did not follow).
        @Test func servesTheClientFileByteForByte() async throws {
            let file = try [UInt8](Data(contentsOf: packageRoot.appendingPathComponent("clients/js/statehouse.js")))
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let response = try client.request("GET", "/client/statehouse.js")
                #expect(response.status == 200)
                #expect(response.field("Content-Type") == "text/javascript; charset=utf-8")
                #expect(response.field("Cache-Control") == "no-cache")
                #expect(response.body == file)
                let tag = try #require(response.field("ETag"))
                #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count == 34)
            }
        }

        /// RFC 9110 §13.1.2, §9.3.2: a matching `If-None-Match` is 304 without a body; HEAD has the GET's fields.
        @Test func etagRevalidationAndHead() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let first = try client.request("GET", "/client/statehouse.js")
                let tag = try #require(first.field("ETag"))
                let again = try client.request("GET", "/client/statehouse.js", fields: [("If-None-Match", tag)])
                #expect(again.status == 304)
                #expect(again.body.isEmpty)
                #expect(again.field("ETag") == tag)
                let stale = try client.request("GET", "/client/statehouse.js", fields: [("If-None-Match", "\"0123\"")])
                #expect(stale.status == 200)
                #expect(stale.body == first.body)
                let head = try client.request("HEAD", "/client/statehouse.js")
                #expect(head.status == 200)
                #expect(head.body.isEmpty)
                #expect(head.field("ETag") == tag)
                #expect(head.field("Content-Length") == String(first.body.count))
                let post = try client.request("POST", "/client/statehouse.js", body: "{}")
                #expect(post.status == 405)
                #expect(post.field("Allow") == "GET, HEAD")
                // Still answered in step after all of these (keep-alive).
                #expect(try client.request("GET", "/healthz").status == 200)
            }
        }

        /// The script is public under `auth` (it holds no data), and gets CORS fields for an allowed origin; an
        /// unlisted origin is refused like everywhere else.
        @Test func publicUnderAuthWithCORSFields() async throws {
            try await TestServer.with(configure: Self.browserSetup) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                #expect(try client.request("GET", "/stores/todos").status == 401)
                let plain = try client.request("GET", "/client/statehouse.js")
                #expect(plain.status == 200)
                #expect(plain.field("Access-Control-Allow-Origin") == nil)
                let cross = try client.request("GET", "/client/statehouse.js", fields: [("Origin", Self.origin)])
                #expect(cross.status == 200)
                #expect(cross.field("Access-Control-Allow-Origin") == Self.origin)
                #expect(cross.field("Vary") == "Origin")
                let evil = try client.request("GET", "/client/statehouse.js", fields: [("Origin", "https://evil.example")])
                #expect(evil.status == 403)
            }
        }

        /// A browser's `EventSource` from an allowed origin needs `Access-Control-Allow-Origin` on the stream's head.
        @Test func sseStreamCarriesCORSFieldsForAnAllowedOrigin() async throws {
            try await TestServer.with(configure: Self.browserSetup) { server in
                let cross = try SSEReader(
                    port: server.port, path: "/stores/counter/events?format=patch&access_token=\(Self.token)",
                    fields: [("Origin", Self.origin)])
                defer { cross.close() }
                #expect(cross.field("Access-Control-Allow-Origin") == Self.origin)
                #expect(cross.field("Vary") == "Origin")
                #expect(cross.field("Access-Control-Expose-Headers")?.contains("WWW-Authenticate") == true)
                let first = try cross.next()
                #expect(first.event == "state")
                #expect(first.data.contains(#""version":0"#))

                let plain = try SSEReader(port: server.port, path: "/stores/counter/events?access_token=\(Self.token)")
                defer { plain.close() }
                #expect(plain.field("Access-Control-Allow-Origin") == nil)
                #expect(try plain.next().event == "state")
            }
        }

        /// HEAD works wherever GET does (docs/protocol.md): on `/events` it answers the stream's head (200
        /// `text/event-stream`, the CORS fields) without starting a stream, so the connection answers the next request
        /// (a started stream would put its first `state` event where the next response's status line must be).
        @Test func headOnEventsAnswersTheStreamHeadAndNoStream() async throws {
            try await TestServer.with(configure: Self.browserSetup) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let fields = [("Origin", Self.origin), ("Authorization", "Bearer \(Self.token)")]
                let head = try client.request("HEAD", "/stores/counter/events?format=patch", fields: fields)
                #expect(head.status == 200)
                #expect(head.field("Content-Type") == "text/event-stream")
                #expect(head.field("Cache-Control") == "no-cache")
                #expect(head.field("Access-Control-Allow-Origin") == Self.origin)
                #expect(head.field("Access-Control-Expose-Headers")?.contains("WWW-Authenticate") == true)
                #expect(head.field("Connection") == nil)
                #expect(head.body.isEmpty)
                let posted = try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#, fields: fields)
                #expect(posted.status == 200)
                #expect(try client.request("GET", "/healthz").status == 200)
                // Checked like a GET: a bad query, an unknown store, no credential.
                let badQuery = try client.request("HEAD", "/stores/counter/events?format=nope", fields: fields)
                #expect(badQuery.status == 400)
                #expect(badQuery.body.isEmpty)
                #expect(try client.request("HEAD", "/stores/nope/events", fields: fields).status == 404)
                #expect(try client.request("HEAD", "/stores/counter/events").status == 401)
                let wrong = try client.request("POST", "/stores/counter/events", body: "{}", fields: fields)
                #expect(wrong.status == 405)
                #expect(wrong.field("Allow") == "GET, HEAD")
                // Connection: close is honoured: the head, then the end of the connection.
                let closing = try client.request("HEAD", "/stores/counter/events", fields: fields + [("Connection", "close")])
                #expect(closing.status == 200)
                #expect(closing.field("Connection") == "close")
            }
        }

        /// `fetch` POST with `Content-Type: application/json`, `Authorization` and `Idempotency-Key` from another
        /// origin: the preflight allows those fields, and the answer exposes `Idempotent-Replayed` on a replay.
        @Test func crossOriginKeyedPostPassesThePreflight() async throws {
            try await TestServer.with(configure: Self.browserSetup) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let preflight = try client.request("OPTIONS", "/stores/counter/actions", fields: [
                    ("Origin", Self.origin), ("Access-Control-Request-Method", "POST"),
                    ("Access-Control-Request-Headers", "authorization,content-type,idempotency-key"),
                ])
                #expect(preflight.status == 204)
                #expect(preflight.field("Access-Control-Allow-Origin") == Self.origin)
                let allowed = Set((preflight.field("Access-Control-Allow-Headers") ?? "")
                    .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
                #expect(allowed.isSuperset(of: ["authorization", "content-type", "idempotency-key"]))
                #expect(preflight.field("Access-Control-Allow-Methods")?.contains("POST") == true)

                let fields = [
                    ("Origin", Self.origin), ("Authorization", "Bearer \(Self.token)"), ("Content-Type", "application/json"),
                    ("Idempotency-Key", "browser-key-1"),
                ]
                let first = try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#, fields: fields)
                #expect(first.status == 200)
                #expect(first.field("Access-Control-Allow-Origin") == Self.origin)
                let replay = try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#, fields: fields)
                #expect(replay.status == 200)
                #expect(replay.field("Idempotent-Replayed") == "true")
                #expect(replay.field("Access-Control-Expose-Headers")?.contains("Idempotent-Replayed") == true)
                #expect(replay.bodyText == first.bodyText)
            }
        }

        /// A 401 to an allowed origin exposes `WWW-Authenticate`, so a script can read the challenge.
        @Test func unauthorizedExposesTheChallengeToScripts() async throws {
            try await TestServer.with(configure: Self.browserSetup) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let denied = try client.request("GET", "/stores/counter", fields: [("Origin", Self.origin)])
                #expect(denied.status == 401)
                #expect(denied.field("WWW-Authenticate") == #"Bearer realm="statehouse""#)
                #expect(denied.field("Access-Control-Allow-Origin") == Self.origin)
                let exposed = (denied.field("Access-Control-Expose-Headers") ?? "").split(separator: ",")
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                #expect(exposed.contains("WWW-Authenticate"))
            }
        }
    }
}
