import Testing
import StatehouseTestClients

@Suite struct HTTPChecks {
    let port = Fixture.shared.httpPort

    @Test func keepAliveRequests() throws {
        let client = try TestHTTPClient(port: port)
        defer { client.close() }
        let health = try client.request("GET", "/healthz")
        #expect(health.status == 200)
        #expect(health.bodyText == #"{"status":"ok"}"#)
        #expect(health.field("content-type") == "application/json")
        let posted = try client.request("POST", "/stores/counter/actions", body: #"{"type":"increment"}"#)
        #expect(posted.status == 200)
        let json = try posted.json()
        #expect(json["store"] as? String == "counter")
        #expect((json["state"] as? [String: Any])?["count"] as? Int != nil)
        let missing = try client.request("GET", "/nope")
        #expect(missing.status == 404)
        let error = try missing.json()["error"] as? [String: Any]
        #expect(error?["code"] as? String == "not_found")
        let head = try client.request("HEAD", "/healthz")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(try client.request("GET", "/healthz").status == 200)
    }

    @Test func garbageGets400AndClose() throws {
        let client = try TestHTTPClient(port: port)
        try client.sendRaw(Array("BLAH /x HTTP/1.1\r\n\r\n".utf8))
        let response = try client.readResponse(deadline: .now + .seconds(5))
        #expect(response.status == 501)
        #expect(client.isClosedByPeer(deadline: .now + .seconds(5)))
    }

    @Test func idleConnectionIsNotClosed() throws {
        let client = try TestHTTPClient(port: port)
        defer { client.close() }
        #expect(!client.isClosedByPeer(deadline: .now + .milliseconds(200)))
    }

    @Test func readTimesOut() throws {
        let client = try TestHTTPClient(port: port)
        defer { client.close() }
        try client.sendRaw(Array("GET /healthz HTTP/1.1\r\n".utf8))
        let error = #expect(throws: TestClientError.self) {
            try client.readResponse(deadline: .now + .milliseconds(200))
        }
        #expect(error?.isTimeout == true)
    }

    @Test func rawSocketCloseDelimited() throws {
        let socket = try TestSocket(port: port)
        try socket.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let all = try socket.receiveUntilClosed(deadline: .now + .seconds(5))
        let text = String(decoding: all, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200"))
        #expect(text.hasSuffix(#"{"status":"ok"}"#))
        #expect(try socket.receive(deadline: .now + .seconds(1)).isEmpty)
    }

    @Test func connectRefused() throws {
        let error = #expect(throws: TestClientError.self) { try TestSocket(port: 1) }
        #expect(error?.description.contains("refused") == true)
    }

    @Test func curlWorks() throws {
        let result = try TestCurl.run(["http://127.0.0.1:\(port)/healthz"])
        #expect(result.status == 0)
        #expect(result.stdout == #"{"status":"ok"}"#)
        let refused = try TestCurl.run(["http://127.0.0.1:1/"])
        #expect(refused.status == 7)
        #expect(!refused.stderr.isEmpty)
    }
}
