import Foundation
import StatehouseTestClients
import Testing

extension ServerTests {
    @Suite struct WebSocketAPITests {
        @Test func snapshotFirstThenOneMessagePerChangeAndAcksAfterTheirState() async throws {
            try await TestServer.with { server in
                let ws = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
                defer { ws.close() }
                let snapshot = try ws.receiveJSON(timeout: .seconds(5))
                #expect(snapshot["type"] as? String == "state")
                #expect(snapshot["store"] as? String == "counter")
                #expect(snapshot["version"] as? Int == 0)
                #expect((snapshot["state"] as? [String: Any])?["count"] as? Int == 0)

                try ws.sendText(#"{"type":"action","ref":"r1","action":{"type":"increment"}}"#)
                let state = try ws.receiveJSON(timeout: .seconds(5))
                #expect(state["version"] as? Int == 1)
                let ack = try ws.receiveJSON(timeout: .seconds(5))
                #expect(ack["type"] as? String == "ack")
                #expect(ack["ref"] as? String == "r1")
                #expect(ack["version"] as? Int == 1)

                // An action that leaves the state equal produces an ack but no state message.
                try ws.sendText(#"{"type":"action","ref":"same","action":{"type":"add","payload":{"amount":0}}}"#)
                let sameAck = try ws.receiveJSON(timeout: .seconds(5))
                #expect(sameAck["type"] as? String == "ack")
                #expect(sameAck["version"] as? Int == 1)
            }
        }

        @Test func malformedMessagesGetErrorsAndTheConnectionStaysOpen() async throws {
            try await TestServer.with { server in
                let ws = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
                defer { ws.close() }
                _ = try ws.receiveJSON(timeout: .seconds(5))
                try ws.sendText("not json")
                let notJSON = try ws.receiveJSON(timeout: .seconds(5))
                #expect(notJSON["type"] as? String == "error")
                #expect(notJSON["code"] as? String == "invalid_message")
                #expect((notJSON["message"] as? String)?.contains("not valid JSON") == true)
                try ws.sendText("[1]")
                let notObject = try ws.receiveJSON(timeout: .seconds(5))
                #expect((notObject["message"] as? String)?.contains("must be a JSON object") == true)
                try ws.sendText(#"{"type":"action","ref":"r8","action":{"type":"add","payload":{"amount":"x"}},}"#)
                #expect(try ws.receiveJSON(timeout: .seconds(5))["code"] as? String == "invalid_message")  // trailing comma
                try ws.sendText(#"{"type":"action","ref":"r7","action":{"type":"add","payload":{"amount":"x"}}}"#)
                let mistyped = try ws.receiveJSON(timeout: .seconds(5))
                #expect(mistyped["ref"] as? String == "r7")
                #expect((mistyped["message"] as? String)?.contains(#""amount""#) == true)
                try ws.sendText(#"{"type":"action","ref":"r9","action":{"type":"explode"}}"#)
                let badAction = try ws.receiveJSON(timeout: .seconds(5))
                #expect(badAction["code"] as? String == "invalid_action")
                #expect(badAction["ref"] as? String == "r9")
                try ws.sendText(#"{"type":"dance"}"#)
                #expect(try ws.receiveJSON(timeout: .seconds(5))["code"] as? String == "invalid_message")
                try ws.sendBinary([1, 2, 3])
                #expect(try ws.receiveJSON(timeout: .seconds(5))["code"] as? String == "invalid_message")
                try ws.sendText(#"{"type":"action","ref":"ok","action":{"type":"increment"}}"#)
                #expect(try ws.receiveJSON(timeout: .seconds(5))["version"] as? Int == 1)
            }
        }

        @Test func pingIsAnsweredAndCloseIsEchoed() async throws {
            try await TestServer.with { server in
                let ws = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
                defer { ws.close() }
                _ = try ws.receiveJSON(timeout: .seconds(5))
                try ws.sendPing([7, 8, 9])
                #expect(try ws.receive(timeout: .seconds(5)) == .pong([7, 8, 9]))
                try ws.sendClose(code: 1000, reason: "bye")
                #expect(try ws.receiveClose(timeout: .seconds(5)) == 1000)
            }
        }

        /// Close codes IANA registered after RFC 6455 (1012 service restart, 1013 try again later, 1014 bad gateway)
        /// are a peer's to send: echoed, not failed with 1002.
        @Test(arguments: [UInt16(1012), 1013, 1014])
        func registeredCloseCodesAreEchoed(code: UInt16) async throws {
            try await TestServer.with { server in
                let ws = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
                defer { ws.close() }
                _ = try ws.receiveJSON(timeout: .seconds(5))
                try ws.sendClose(code: code, reason: "later")
                #expect(try ws.receiveClose(timeout: .seconds(5)) == code)
            }
        }

        @Test(arguments: [
            ("unmasked frame", 1002 as UInt16),
            ("reserved opcode", 1002),
            ("rsv bit", 1002),
            ("invalid utf-8", 1007),
            ("too big", 1009),
        ])
        func protocolViolationsCloseWithTheRFCCode(violation: String, code: UInt16) async throws {
            try await TestServer.with(limits: .init(maxMessageBytes: 1024)) { server in
                let ws = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
                defer { ws.close() }
                _ = try ws.receiveJSON(timeout: .seconds(5))
                switch violation {
                case "unmasked frame": try ws.sendFrame(opcode: 1, payload: Array("{}".utf8), masked: false)
                case "reserved opcode": try ws.sendFrame(opcode: 3, payload: [])
                case "rsv bit": try ws.sendFrame(opcode: 1, payload: Array("{}".utf8), rsv: 0b100)
                case "invalid utf-8": try ws.sendFrame(opcode: 1, payload: [0x7B, 0xC0, 0xAF, 0x7D])
                default: try ws.sendText(String(repeating: "x", count: 2000))
                }
                #expect(try ws.receiveClose(timeout: .seconds(5)) == code)
                // Everyone else is still served.
                let other = try TestHTTPClient(port: server.port)
                defer { other.close() }
                #expect(try other.request("GET", "/healthz").status == 200)
            }
        }

        @Test func handshakeErrorsAreJSONAndDoNotUpgrade() async throws {
            try await TestServer.with { server in
                let key = "dGhlIHNhbXBsZSBub25jZQ=="
                let host = ("Host", "127.0.0.1:\(server.port)")
                let upgrade = [host, ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Version", "13"), ("Sec-WebSocket-Key", key)]
                let unknown = try TestWebSocketClient.attemptHandshake(port: server.port, path: "/stores/nope/ws", fields: upgrade)
                #expect(unknown.status == 404)
                #expect((try unknown.json()["error"] as? [String: Any])?["code"] as? String == "store_not_found")
                let badVersion = try TestWebSocketClient.attemptHandshake(
                    port: server.port, path: "/stores/counter/ws",
                    fields: [host, ("Upgrade", "websocket"), ("Connection", "keep-alive, Upgrade"), ("Sec-WebSocket-Version", "8"), ("Sec-WebSocket-Key", key)])
                #expect(badVersion.status == 426)
                #expect(badVersion.field("Sec-WebSocket-Version") == "13")
                #expect(badVersion.field("Upgrade") == "websocket")
                #expect(badVersion.fieldValues("Connection").map { $0.lowercased() }.sorted() == ["close", "upgrade"])
                let http10 = try TestHTTPClient(port: server.port)
                defer { http10.close() }
                try http10.sendRaw("GET /stores/counter/ws HTTP/1.0\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: \(key)\r\n\r\n")
                #expect(try http10.readResponse(deadline: .now + .seconds(5)).status == 400)
                let plain = try TestHTTPClient(port: server.port)
                defer { plain.close() }
                let noUpgrade = try plain.request("GET", "/stores/counter/ws")
                #expect(noUpgrade.status == 426)
                #expect(noUpgrade.field("Upgrade") == "websocket")
                #expect(noUpgrade.field("Connection") == "Upgrade")
                let multiplexed = try plain.request("GET", "/ws")
                #expect(multiplexed.status == 426)
                #expect(multiplexed.field("Upgrade") == "websocket")
                #expect(multiplexed.field("Connection") == "Upgrade")
            }
        }

        @Test func framesInTheSameSegmentAsTheHandshakeAreProcessed() async throws {
            try await TestServer.with { server in
                let socket = try TestSocket(port: server.port)
                defer { socket.close() }
                let request = "GET /stores/counter/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
                let text = Array(#"{"type":"action","ref":"early","action":{"type":"increment"}}"#.utf8)
                var frame: [UInt8] = [0x81, 0x80 | UInt8(text.count), 1, 2, 3, 4]
                frame += text.enumerated().map { $0.element ^ [1, 2, 3, 4][$0.offset % 4] }
                try socket.send(Array(request.utf8) + frame)
                var received = ""
                let deadline = ContinuousClock.now + .seconds(5)
                while !received.contains(#""ref":"early""#), ContinuousClock.now < deadline {
                    let chunk = try socket.receive(deadline: deadline)
                    if chunk.isEmpty { break }
                    received += String(decoding: chunk, as: UTF8.self)
                }
                #expect(received.contains("101 Switching Protocols"))
                #expect(received.contains(#""version":0"#))
                #expect(received.contains(#"{"type":"ack","ref":"early","version":1}"#))
            }
        }

        @Test func shutdownClosesWebSocketsWith1001() async throws {
            let server = try TestServer()
            let ws = try TestWebSocketClient(port: server.port, path: "/stores/counter/ws")
            defer { ws.close() }
            _ = try ws.receiveJSON(timeout: .seconds(5))
            let stopper = Thread { server.stop() }
            stopper.start()
            #expect(try ws.receiveClose(timeout: .seconds(5)) == 1001)
            server.server.waitUntilStopped()
        }
    }
}
