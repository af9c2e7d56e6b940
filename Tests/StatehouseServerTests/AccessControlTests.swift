import Foundation
import StatehouseServer
import StatehouseTestClients
import Testing

/// Bearer tokens (RFC 6750) with scopes per store, and CORS origins (Fetch §3.2), over HTTP, WebSocket and SSE.
extension ServerTests {
    @Suite struct AccessControlTests {
        static let reader = "reader-token-0123456789"
        static let writer = "writer-token-0123456789"
        static let admin = "admin-token-0123456789ab"

        static func secured(_ configuration: inout ServerConfiguration) {
            configuration.auth = AccessPolicy(entries: [
                (AccessPolicy.sha256(Array(reader.utf8)), .init(stores: ["counter"], scopes: [.read])),
                (AccessPolicy.sha256(Array(writer.utf8)), .init(stores: ["count*", "todos"], scopes: [.read, .write])),
                (AccessPolicy.sha256(Array(admin.utf8)), .init(stores: ["*"], scopes: [.read, .write, .admin])),
            ])
            configuration.cors = CORSPolicy(allowedOrigins: ["https://app.example"])
        }

        static func bearer(_ token: String) -> [(String, String)] { [("Authorization", "Bearer \(token)")] }

        @Test func rfc6750_3_missingOrUnknownTokenIs401WithAChallenge() async throws {
            try await TestServer.with(configure: Self.secured) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                #expect(try client.request("GET", "/healthz").status == 200)  // stays open
                let missing = try client.request("GET", "/stores/counter")
                #expect(missing.status == 401)
                #expect(missing.field("WWW-Authenticate") == #"Bearer realm="statehouse""#)
                #expect((try missing.json()["error"] as? [String: Any])?["code"] as? String == "unauthorized")
                let unknown = try client.request("GET", "/stores/counter", fields: Self.bearer("nope-nope-nope-nope"))
                #expect(unknown.status == 401)
                #expect(unknown.field("WWW-Authenticate")?.contains("invalid_token") == true)
            }
        }

        @Test func scopesAndStorePatternsAreEnforced() async throws {
            try await TestServer.with(configure: Self.secured) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let increment = #"{"type":"increment"}"#
                #expect(try client.request("GET", "/stores/counter", fields: Self.bearer(Self.reader)).status == 200)
                #expect(try client.request("GET", "/stores/todos", fields: Self.bearer(Self.reader)).status == 403)
                #expect(try client.request("POST", "/stores/counter/actions", body: increment, fields: Self.bearer(Self.reader)).status == 403)
                #expect(try client.request("POST", "/stores/counter/actions", body: increment, fields: Self.bearer(Self.writer)).status == 200)
                #expect(try client.request("PUT", "/stores/new", body: #"{"reducer":"Counter"}"#, fields: Self.bearer(Self.writer)).status == 403)
                #expect(try client.request("PUT", "/stores/new", body: #"{"reducer":"Counter"}"#, fields: Self.bearer(Self.admin)).status == 201)
                let list = try client.request("GET", "/stores", fields: Self.bearer(Self.reader)).bodyText
                #expect(list == #"{"stores":[{"name":"counter","reducer":"Counter","version":1}]}"#)
            }
        }

        @Test func webSocketTokensByHeaderSubprotocolOrQuery() async throws {
            try await TestServer.with(configure: Self.secured) { server in
                let denied = try TestWebSocketClient.attemptHandshake(
                    port: server.port, path: "/stores/counter/ws", fields: TestWebSocketClient.handshakeFields(port: server.port))
                #expect(denied.status == 401)

                let viaProtocol = try TestWebSocketClient(
                    port: server.port, path: "/stores/counter/ws", extraFields: [("Sec-WebSocket-Protocol", "bearer.\(Self.reader)")])
                defer { viaProtocol.close() }
                #expect(viaProtocol.handshakeResponse.field("Sec-WebSocket-Protocol") == "bearer.\(Self.reader)")
                #expect(try viaProtocol.receiveJSON(timeout: .seconds(5))["version"] as? Int == 0)
                // A read-only token cannot act.
                try viaProtocol.sendText(#"{"type":"action","ref":"w","action":{"type":"increment"}}"#)
                let refused = try viaProtocol.receiveJSON(timeout: .seconds(5))
                #expect(refused["code"] as? String == "forbidden")
                #expect(refused["ref"] as? String == "w")

                let viaQuery = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws?access_token=\(Self.writer)")
                defer { viaQuery.close() }
                _ = try viaQuery.receiveJSON(timeout: .seconds(5))
                try viaQuery.sendText(#"{"type":"action","ref":"ok","action":{"type":"increment"}}"#)
                #expect(try viaQuery.receiveJSON(timeout: .seconds(5))["version"] as? Int == 1)
            }
        }

        @Test func corsPreflightAllowedOriginAndRefusedOrigin() async throws {
            try await TestServer.with(configure: Self.secured) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let preflight = try client.request("OPTIONS", "/stores/counter/actions", fields: [
                    ("Origin", "https://app.example"), ("Access-Control-Request-Method", "POST"),
                    ("Access-Control-Request-Headers", "authorization, content-type"),
                ])
                #expect(preflight.status == 204)
                #expect(preflight.field("Access-Control-Allow-Origin") == "https://app.example")
                #expect(preflight.field("Access-Control-Allow-Methods")?.contains("POST") == true)
                #expect(preflight.field("Access-Control-Allow-Headers")?.contains("Authorization") == true)
                let allowed = try client.request(
                    "GET", "/stores/counter", fields: Self.bearer(Self.reader) + [("Origin", "https://app.example")])
                #expect(allowed.status == 200)
                #expect(allowed.field("Access-Control-Allow-Origin") == "https://app.example")
                let evil = try client.request("GET", "/stores/counter", fields: Self.bearer(Self.reader) + [("Origin", "https://evil.example")])
                #expect(evil.status == 403)
                #expect((try evil.json()["error"] as? [String: Any])?["code"] as? String == "origin_not_allowed")
                let evilSocket = try TestWebSocketClient.attemptHandshake(
                    port: server.port, path: "/stores/counter/ws?access_token=\(Self.reader)",
                    fields: TestWebSocketClient.handshakeFields(port: server.port) + [("Origin", "https://evil.example")])
                #expect(evilSocket.status == 403)
            }
        }

        /// RFC 9110 §9.3.2: the 403 for a refused `Origin` on `HEAD` has no body, so the connection stays in step
        /// (a body there was read as the start of the next response).
        @Test func headFromARefusedOriginIs403WithoutBody() async throws {
            try await TestServer.with(configure: Self.secured) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let evil = try client.request("HEAD", "/stores/counter", fields: Self.bearer(Self.reader) + [("Origin", "https://evil.example")])
                #expect(evil.status == 403)
                #expect(evil.body.isEmpty)
                let next = try client.request("GET", "/stores/counter", fields: Self.bearer(Self.reader))
                #expect(next.status == 200)
                #expect(next.bodyText.contains(#""store":"counter""#))
            }
        }
    }
}
