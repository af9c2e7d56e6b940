import Foundation
import StatehouseTestClients
import Testing

/// RFC 9112 framing rules at the server: each malformed message, an exact byte sequence on a raw socket, gets its
/// status and the connection is closed — so no request can be smuggled past the parser.
extension ServerTests {
    @Suite struct RFC9112RejectionTests {
        static let post = "POST /stores/counter/actions HTTP/1.1\r\nHost: x\r\n"

        @Test(arguments: [
            ("§6.3 Content-Length with Transfer-Encoding", post + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
            ("§6.3 conflicting Content-Length", post + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", 400),
            ("§6.3 Content-Length list", post + "Content-Length: 5, 6\r\n\r\nhello!", 400),
            ("§6.3 last coding not chunked", post + "Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n", 400),
            ("§6.1 unknown coding only", post + "Transfer-Encoding: foo\r\n\r\n", 400),
            ("§6.1 unknown coding before chunked", post + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501),
            ("§6.1 unknown coding in a second field", post + "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 501),
            ("§5.2 obs-fold", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n", 400),
            ("§5.1 whitespace before colon", "GET /healthz HTTP/1.1\r\nHost : x\r\n\r\n", 400),
            ("§2.2 bare LF", "GET /healthz HTTP/1.1\nHost: x\n\n", 400),
            ("§2.2 bare CR", "GET /healthz HTTP/1.1\rHost: x\r\n\r\n", 400),
            ("§7.1 chunk size junk", post + "Transfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n0\r\n\r\n", 400),
            ("§7.1 chunk size with sign", post + "Transfer-Encoding: chunked\r\n\r\n-1\r\na\r\n0\r\n\r\n", 400),
            ("§7.1 chunk size 0x", post + "Transfer-Encoding: chunked\r\n\r\n0x2\r\nab\r\n0\r\n\r\n", 400),
            ("§7.1 chunk size overflow", post + "Transfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\nab\r\n0\r\n\r\n", 400),
            ("§7.1 chunk data without CRLF", post + "Transfer-Encoding: chunked\r\n\r\n2\r\nabX0\r\n\r\n", 400),
            ("§7.1.1 control byte in chunk extension", post + "Transfer-Encoding: chunked\r\n\r\n2;a=\u{1}\r\nab\r\n0\r\n\r\n", 400),
            ("§2.3 HTTP/0.9", "GET /healthz\r\n\r\n", 505),
            ("§3.2 HTTP/1.1 without Host", "GET /healthz HTTP/1.1\r\n\r\n", 400),
            ("§3.2 two Host fields", "GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
            ("§3.2 upgrade without Host", "GET /stores/counter/ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", 400),
            ("§2.3 HTTP/2.0 on HTTP/1 framing", "GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n", 505),
            ("§5.1 control byte in field name", "GET /healthz HTTP/1.1\r\nHost: x\r\nX\u{1}A: b\r\n\r\n", 400),
            ("§5.5 NUL in field value", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n", 400),
        ])
        func malformedMessageIsRefusedAndClosed(rule: String, bytes: String, status: Int) async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                try client.sendRaw(Array(bytes.utf8))
                let response = try client.readResponse(deadline: .now + .seconds(5))
                #expect(response.status == status, "\(rule)")
                #expect(client.isClosedByPeer(deadline: .now + .seconds(5)), "\(rule)")
                let check = try TestHTTPClient(port: server.port)
                defer { check.close() }
                #expect(try check.request("GET", "/stores/counter").bodyText.contains(#""version":0"#), "\(rule): nothing reduced")
            }
        }

        /// RFC 9110 §9.3.2: the 400 for a `HEAD` without exactly one `Host` has no body.
        @Test func headWithTwoHostFieldsIs400WithoutBody() async throws {
            try await TestServer.with { server in
                let socket = try TestSocket(port: server.port)
                defer { socket.close() }
                try socket.send("HEAD /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
                let reply = String(decoding: try socket.receiveUntilClosed(deadline: .now + .seconds(5)), as: UTF8.self)
                #expect(reply.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
                #expect(reply.hasSuffix("\r\n\r\n"))
            }
        }
    }
}
