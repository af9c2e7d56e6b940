import Testing
import StatehouseTestClients

@Suite struct WebSocketChecks {
    let port = Fixture.shared.wsPort

    @Test func acceptVector() {
        #expect(TestWebSocketClient.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(TestWebSocketClient.randomKey().count == 24)
    }

    @Test func stateActionAck() throws {
        let ws = try TestWebSocketClient(port: port, path: "/stores/counter/ws")
        defer { ws.close() }
        let first = try ws.receiveJSON()
        #expect(first["type"] as? String == "state")
        let start = try #require(first["version"] as? Int)
        try ws.sendText(#"{"type":"action","ref":"r1","action":{"type":"increment"}}"#)
        let ack = try ws.receiveJSON()
        #expect(ack["type"] as? String == "ack" && ack["ref"] as? String == "r1")
        let state = try ws.receiveJSON { $0["type"] as? String == "state" }
        #expect(try #require(state["version"] as? Int) > start)
        try ws.sendText(#"{"type":"action","ref":"r2","action":{"type":"bad"}}"#)
        let error = try ws.receiveJSON()
        #expect(error["type"] as? String == "error" && error["code"] as? String == "bad_action")
    }

    @Test func fragmentsPingsBinary() throws {
        let ws = try TestWebSocketClient(port: port, path: "/stores/counter/ws")
        defer { ws.close() }
        _ = try ws.receive()
        try ws.sendText("fragment")
        #expect(try ws.receive() == .text("fragmented"))
        try ws.sendText("ping")
        #expect(try ws.receive() == .ping(Array("hi".utf8)))
        try ws.sendPing([1, 2, 3])
        #expect(try ws.receive() == .pong([1, 2, 3]))
        try ws.sendText("binary")
        #expect(try ws.receive() == .binary([0, 1, 2]))
        try ws.sendText("big")
        #expect(try ws.receive() == .text(String(repeating: "y", count: 70_000)))
        #expect(try ws.receive() == .text(String(repeating: "z", count: 300)))
        let big = String(repeating: "x", count: 70_000)
        try ws.sendText(#"{"ref":"big","action":{"type":"x"},"pad":"\#(big)"}"#)
        #expect(try ws.receiveJSON()["ref"] as? String == "big")
    }

    @Test func serverCloseCode() throws {
        let ws = try TestWebSocketClient(port: port, path: "/stores/counter/ws")
        defer { ws.close() }
        _ = try ws.receive()
        try ws.sendText("bye")
        #expect(try ws.receiveClose() == 1001)
        #expect(throws: TestClientError.self) { try ws.receive(timeout: .seconds(2)) }
    }

    @Test func protocolViolationsGetCloseCodes() throws {
        let unmasked = try TestWebSocketClient(port: port, path: "/stores/counter/ws")
        try unmasked.sendFrame(opcode: 1, payload: Array("hi".utf8), masked: false)
        #expect(try unmasked.receiveClose(timeout: .seconds(1)) == 1002, "unmasked")
        let badUTF8 = try TestWebSocketClient(port: port, path: "/stores/counter/ws")
        try badUTF8.sendFrame(opcode: 1, payload: [0xC3, 0x28])
        #expect(try badUTF8.receiveClose(timeout: .seconds(1)) == 1007, "utf8")
        let rsv = try TestWebSocketClient(port: port, path: "/stores/counter/ws")
        try rsv.sendFrame(opcode: 1, payload: Array("hi".utf8), rsv: 4)
        #expect(try rsv.receiveClose(timeout: .seconds(1)) == 1002, "rsv")
        let split = try TestWebSocketClient(port: port, path: "/stores/counter/ws")
        _ = try split.receive()
        try split.sendFrame(opcode: 1, payload: Array("not".utf8), fin: false)
        try split.sendFrame(opcode: 0, payload: Array(" json".utf8))
        #expect(try split.receiveClose(timeout: .seconds(1)) == 1007, "split")  // the fixture rejects non-JSON with 1007
    }

    @Test func concurrentSendAndReceive() async throws {
        let ws = try TestWebSocketClient(port: port, path: "/stores/counter/ws")
        defer { ws.close() }
        _ = try ws.receive()
        let reader = Task.detached { () throws -> Int in
            var acks = 0
            while acks < 20 {
                if try ws.receiveJSON()["type"] as? String == "ack" { acks += 1 }
            }
            return acks
        }
        for index in 0..<20 {
            try ws.sendText(#"{"type":"action","ref":"c\#(index)","action":{"type":"increment"}}"#)
        }
        #expect(try await reader.value == 20)
    }

    @Test func closeAfterServerGoneDoesNotHang() throws {
        let ws = try TestWebSocketClient(port: port, path: "/stores/counter/ws")
        _ = try ws.receive()
        try ws.sendText("bye")
        #expect(try ws.receiveClose() == 1001)
        let start = ContinuousClock.now
        ws.close()
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(throws: TestClientError.self) { try ws.sendText("late") }
    }

    @Test func clientCloseHandshake() throws {
        let ws = try TestWebSocketClient(port: port, path: "/stores/counter/ws")
        _ = try ws.receive()
        try ws.sendClose(code: 1000, reason: "done")
        #expect(try ws.receiveClose() == 1000)
    }

    @Test func dropAndReceiveTimeout() throws {
        let ws = try TestWebSocketClient(port: port, path: "/stores/counter/ws")
        _ = try ws.receive()
        let error = #expect(throws: TestClientError.self) { try ws.receive(timeout: .milliseconds(200)) }
        #expect(error?.isTimeout == true)
        ws.dropConnection()
    }

    @Test func rejectedHandshake() throws {
        let error = #expect(throws: TestClientError.self) {
            try TestWebSocketClient(port: port, path: "/stores/none/ws")
        }
        #expect(error?.description.contains("404") == true)
        let response = try TestWebSocketClient.attemptHandshake(
            port: port, path: "/stores/counter/ws",
            fields: TestWebSocketClient.handshakeFields(port: port).filter { $0.0 != "Sec-WebSocket-Key" })
        #expect(response.status == 400)
        let ok = try TestWebSocketClient.attemptHandshake(
            port: port, path: "/stores/counter/ws", fields: TestWebSocketClient.handshakeFields(port: port))
        #expect(ok.status == 101)
    }

    @Test func pythonScripts() throws {
        let url = "ws://127.0.0.1:\(port)/stores/counter/ws"
        let watch = try TestPython.run(script: "ws_watch.py", args: ["--url", url, "--until-version", "0"])
        #expect(watch.status == 0)
        #expect(watch.stdout.first?.hasPrefix(#"{"type":"state""#) == true)
        let close = try TestPython.run(script: "ws_expect_close.py",
                                       args: ["--url", url, "--send-text", "bye", "--expect-code", "1001"])
        #expect(close.status == 0, "\(close.stderr)")
        let slow = #expect(throws: TestClientError.self) {
            try TestPython.run(script: "ws_watch.py", args: ["--url", url, "--until-version", "99"],
                               timeout: .milliseconds(1500))
        }
        #expect(slow?.isTimeout == true)
    }
}
