import Foundation
import StatehouseServer
import StatehouseTestClients
import Testing

extension ServerTests {
    /// Keep-alive, pipelining, limits and malformed input over a raw socket.
    @Suite struct HTTPTransportTests {
        static func post(_ body: String) -> [UInt8] {
            Array("POST /stores/counter/actions HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
        }

        static func deadline() -> ContinuousClock.Instant { .now + .seconds(5) }

        @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
            try await TestServer.with { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                var batch = ""
                for _ in 0..<5 {
                    batch += "POST /stores/counter/actions HTTP/1.1\r\nHost: x\r\nContent-Length: 20\r\n\r\n{\"type\":\"increment\"}"
                    batch += "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
                }
                try client.sendRaw(Array(batch.utf8))
                for version in 1...5 {
                    let post = try client.readResponse(deadline: Self.deadline())
                    #expect(post.bodyText == "{\"store\":\"counter\",\"version\":\(version),\"state\":{\"count\":\(version)}}")
                    let health = try client.readResponse(deadline: Self.deadline())
                    #expect(health.bodyText == #"{"status":"ok"}"#)
                }
            }
        }

        /// RFC 9112 §9.6: after `Connection: close`, later pipelined requests are not processed; earlier responses
        /// are all sent, in order.
        @Test func rfc9112_9_6_nothingAfterConnectionCloseIsProcessed() async throws {
            try await TestServer.with { server in
                let socket = try TestSocket(port: server.port)
                defer { socket.close() }
                let post = "POST /stores/counter/actions HTTP/1.1\r\nHost: x\r\nContent-Length: 20\r\n"
                try socket.send(post + "\r\n{\"type\":\"increment\"}" + post + "Connection: close\r\n\r\n{\"type\":\"increment\"}"
                    + post + "\r\n{\"type\":\"increment\"}")
                let reply = String(decoding: try socket.receiveUntilClosed(deadline: Self.deadline()), as: UTF8.self)
                #expect(reply.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
                #expect(reply.hasSuffix(#"{"store":"counter","version":2,"state":{"count":2}}"#))
                let check = try TestHTTPClient(port: server.port)
                defer { check.close() }
                #expect(try check.request("GET", "/stores/counter").bodyText.contains(#""version":2"#))
            }
        }

        @Test func requestSplitIntoSingleBytesIsServed() async throws {
            try await TestServer.with { server in
                let socket = try TestSocket(port: server.port)
                defer { socket.close() }
                let request = "POST /stores/counter/actions HTTP/1.1\r\nHost: x\r\nContent-Length: 20\r\nConnection: close\r\n\r\n{\"type\":\"increment\"}"
                for byte in Array(request.utf8) { try socket.send([byte]) }
                let reply = String(decoding: try socket.receiveUntilClosed(deadline: Self.deadline()), as: UTF8.self)
                #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"))
                #expect(reply.hasSuffix(#"{"store":"counter","version":1,"state":{"count":1}}"#))
            }
        }

        @Test func oversizedBodyIs413BeforeTheBodyIsSent() async throws {
            try await TestServer.with(limits: .init(maxBodyBytes: 64)) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                try client.sendRaw(Array("POST /stores/counter/actions HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n".utf8))
                let response = try client.readResponse(deadline: Self.deadline())
                #expect(response.status == 413)
                #expect((try response.json()["error"] as? [String: Any])?["code"] as? String == "payload_too_large")
                #expect(client.isClosedByPeer(deadline: Self.deadline()))
            }
        }

        @Test func oversizedHeadersAre431() async throws {
            try await TestServer.with(limits: .init(maxHeaderBytes: 1024)) { server in
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                let big = String(repeating: "a", count: 4000)
                try client.sendRaw(Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: \(big)\r\n\r\n".utf8))
                let response = try client.readResponse(deadline: Self.deadline())
                #expect(response.status == 431)
                #expect(client.isClosedByPeer(deadline: Self.deadline()))
            }
        }

        @Test func malformedRequestIs400ThenCloseAndOthersAreStillServed() async throws {
            try await TestServer.with { server in
                let bad = try TestHTTPClient(port: server.port)
                defer { bad.close() }
                let good = try TestHTTPClient(port: server.port)
                defer { good.close() }
                try bad.sendRaw(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\u{1}\r\n\r\n".utf8))
                #expect(try bad.readResponse(deadline: Self.deadline()).status == 200)
                let failure = try bad.readResponse(deadline: Self.deadline())
                #expect(failure.status == 400)
                #expect((try failure.json()["error"] as? [String: Any])?["code"] as? String == "bad_request")
                #expect(bad.isClosedByPeer(deadline: Self.deadline()))
                #expect(try good.request("GET", "/healthz").status == 200)
            }
        }

        @Test func hostileBytesNeverStopTheServer() async throws {
            try await TestServer.with { server in
                let inputs: [[UInt8]] = [
                    Array(repeating: 0, count: 5000), Array(repeating: 0xFF, count: 70000),
                    Array("GET / HTTP/9.9\r\n\r\n".utf8), Array("\r\n\r\n\r\n".utf8),
                    Array("POST /stores/counter/actions HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n".utf8),
                    Array("POST /stores/counter/actions HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n".utf8),
                    Self.post(#"{"type":"add","payload":"# + String(repeating: "[", count: 50000) + String(repeating: "]", count: 50000) + "}"),
                    Self.post(#"{"type":"add","payload":{"amount":1e999}}"#),
                    Self.post(#"{"type":"add","payload":{"amount":"\#u{0}\#u{1}"}}"#),
                ]
                for input in inputs {
                    let socket = try TestSocket(port: server.port)
                    try socket.send(input)
                    socket.shutdownWrite()
                    _ = try socket.receiveUntilClosed(deadline: Self.deadline())
                    socket.close()
                }
                let client = try TestHTTPClient(port: server.port)
                defer { client.close() }
                #expect(try client.request("GET", "/stores/counter").bodyText == #"{"store":"counter","version":0,"state":{"count":0}}"#)
            }
        }

        @Test func curlFormEncodedPostIsReadAsJSON() async throws {
            try await TestServer.with { server in
                let result = try TestCurl.run(["-s", "-d", #"{"type":"increment"}"#, "http://127.0.0.1:\(server.port)/stores/counter/actions"])
                #expect(result.status == 0)
                #expect(result.stdout == #"{"store":"counter","version":1,"state":{"count":1}}"#)
                let keepAlive = try TestCurl.run([
                    "-s", "http://127.0.0.1:\(server.port)/healthz", "http://127.0.0.1:\(server.port)/stores/counter",
                ])
                #expect(keepAlive.stdout == #"{"status":"ok"}{"store":"counter","version":1,"state":{"count":1}}"#)
            }
        }
    }
}
