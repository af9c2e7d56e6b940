import Foundation
@testable import StatehouseServer
import StatehouseTestClients
import Testing

extension ServerTests {
    /// A client that closes its side (FIN) while requests are queued or waiting: every request it sent complete is
    /// answered, in order, and a long poll it left frees its connection at once (found by a hostile trial: both used
    /// to be lost or held).
    @Suite struct HalfCloseTests {
        /// RFC 9112 §9.6: 10 pipelined POSTs, then FIN: all 10 are reduced and answered before the server closes.
        @Test func pipelinedActionsBeforeAHalfCloseAreAllAnswered() async throws {
            try await TestServer.with { server in
                let socket = try TestSocket(port: server.port)
                defer { socket.close() }
                let body = #"{"type":"increment"}"#
                let post = "POST /stores/counter/actions HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                try socket.send(String(repeating: post, count: 10))
                socket.shutdownWrite()
                let reply = String(decoding: try socket.receiveUntilClosed(deadline: .now + .seconds(5)), as: UTF8.self)
                #expect(reply.components(separatedBy: "HTTP/1.1 200 OK").count - 1 == 10)
                #expect(reply.hasSuffix(#""version":10,"state":{"count":10}}"#))
                let check = try TestHTTPClient(port: server.port)
                defer { check.close() }
                #expect(try check.request("GET", "/stores/counter").bodyText.contains(#""version":10"#))
            }
        }

        /// A `min_version` long poll (and a `wait=settled` action) whose client closed is answered at once (408
        /// `client_closed`) and its connection freed, instead of holding a connection slot for `timeout_ms`.
        @Test(arguments: [
            "GET /stores/counter?min_version=999&timeout_ms=600000 HTTP/1.1\r\nHost: x\r\n\r\n",
            "POST /stores/counter/actions?wait=settled&timeout_ms=600000 HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n"
                + #"{"type":"incrementLater","payload":{"ms":3600000}}"#,
        ])
        func aLongPollWhoseClientClosedFreesItsConnection(request: String) async throws {
            try await TestServer.with { server in
                let handlesBefore = server.server.openHandleCount()
                let socket = try TestSocket(port: server.port)
                defer { socket.close() }
                try socket.send(request)
                socket.shutdownWrite()
                let reply = String(decoding: try socket.receiveUntilClosed(deadline: .now + .seconds(5)), as: UTF8.self)
                #expect(reply.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
                #expect(reply.contains(#""code":"client_closed""#))
                #expect(try await WriteBackpressureTests.eventually(within: .seconds(5)) { server.server.sessionCount() == 0 })
                // Nothing of the wait is left: no connection, no timer (a min_version waiter's timer closes with it).
                #expect(try await WriteBackpressureTests.eventually(within: .seconds(5)) { server.server.openHandleCount() == handlesBefore })
            }
        }
    }
}
