import Testing
import WebSocket

/// The client side of the opening handshake (RFC 6455 §4.1): the request, the key, and every check of the answer.
@Suite struct ClientHandshakeTests {
    /// The example of §1.3: this key must be answered with this accept value.
    static let rfcKey = "dGhlIHNhbXBsZSBub25jZQ=="
    static let rfcAccept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

    static func handshake(fields: [(name: String, value: String)] = []) throws -> WebSocketClientHandshake {
        try WebSocketClientHandshake(path: "/ws", host: "127.0.0.1:8080", fields: fields, key: rfcKey)
    }

    static let goodAnswer: [(name: String, value: String)] = [
        (name: "Upgrade", value: "websocket"), (name: "Connection", value: "Upgrade"),
        (name: "Sec-WebSocket-Accept", value: rfcAccept),
    ]

    @Test func rfc6455_1_3_exampleKeyExpectsTheExampleAccept() throws {
        #expect(try Self.handshake().expectedAccept == Self.rfcAccept)
        #expect(try Self.handshake().validate(status: 101, fields: Self.goodAnswer) == nil)
    }

    @Test func requestHasTheHandshakeFieldsThenTheExtraOnes() throws {
        let handshake = try Self.handshake(fields: [
            (name: "Authorization", value: "Bearer abc"), (name: "Origin", value: "https://app.example"),
        ])
        #expect(String(decoding: handshake.requestBytes, as: UTF8.self) == "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
            + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(Self.rfcKey)\r\n"
            + "Sec-WebSocket-Version: 13\r\nAuthorization: Bearer abc\r\nOrigin: https://app.example\r\n\r\n")
    }

    /// §4.1 item 7: a fresh 16-byte nonce, base64 (24 characters), for every handshake; the server side accepts it.
    @Test func randomKeysAreSixteenBytesAndDiffer() throws {
        let keys = try (0..<32).map { _ in try WebSocketClientHandshake(path: "/", host: "h").key }
        #expect(Set(keys).count == keys.count)
        for key in keys {
            #expect(key.utf8.count == 24 && key.hasSuffix("=="))
            let fields = [
                (name: "Upgrade", value: "websocket"), (name: "Connection", value: "Upgrade"),
                (name: "Sec-WebSocket-Version", value: "13"), (name: "Sec-WebSocket-Key", value: key),
            ]
            #expect(throws: Never.self) { try WebSocketHandshake.validate(method: "GET", fields: fields).get() }
        }
    }

    @Test func answersTheClientMustFail() throws {
        let handshake = try Self.handshake()
        func fails(_ status: Int, _ fields: [(name: String, value: String)], _ words: String) {
            do {
                try handshake.validate(status: status, fields: fields)
                Issue.record("accepted \(status) \(fields)")
            } catch {
                #expect(error.message.contains(words), "\(error.message)")
            }
        }
        fails(200, Self.goodAnswer, "status 200")
        fails(101, Array(Self.goodAnswer.dropFirst()), "Upgrade")
        fails(101, [(name: "Upgrade", value: "h2c")] + Self.goodAnswer.dropFirst(), "Upgrade")
        fails(101, Self.goodAnswer.filter { $0.name != "Connection" }, "Connection")
        fails(101, Self.goodAnswer.filter { $0.name != "Sec-WebSocket-Accept" }, "Sec-WebSocket-Accept")
        fails(101, Self.goodAnswer.dropLast() + [(name: "Sec-WebSocket-Accept", value: "AAAAAAAAAAAAAAAAAAAAAAAAAAA=")], "does not match")
        fails(101, Self.goodAnswer + [(name: "Sec-WebSocket-Accept", value: Self.rfcAccept)], "does not match")
        fails(101, Self.goodAnswer + [(name: "Sec-WebSocket-Extensions", value: "permessage-deflate")], "extension")
        fails(101, Self.goodAnswer + [(name: "Sec-WebSocket-Protocol", value: "chat")], "subprotocol")
    }

    /// Field names and list tokens compare case-insensitively; list elements are trimmed (RFC 9110 §5.1, §5.6.1).
    @Test func answerFieldsAreReadLeniently() throws {
        let fields = [
            (name: "upgrade", value: "WebSocket"), (name: "CONNECTION", value: "keep-alive, upgrade"),
            (name: "sec-websocket-accept", value: " \(Self.rfcAccept) "),
        ]
        #expect(try Self.handshake().validate(status: 101, fields: fields) == nil)
    }

    @Test func anOfferedSubprotocolMayBeChosen() throws {
        let handshake = try Self.handshake(fields: [(name: "Sec-WebSocket-Protocol", value: "bearer.t1, v2")])
        #expect(handshake.offeredSubprotocols == ["bearer.t1", "v2"])
        #expect(try handshake.validate(status: 101, fields: Self.goodAnswer + [(name: "Sec-WebSocket-Protocol", value: "v2")]) == "v2")
        #expect(throws: WebSocketClientHandshakeError.self) {
            try handshake.validate(status: 101, fields: Self.goodAnswer + [(name: "Sec-WebSocket-Protocol", value: "v3")])
        }
    }

    @Test func badRequestPartsAreRefusedBeforeAnythingIsSent() {
        let cases: [(String, String, [(name: String, value: String)], String?)] = [
            ("ws", "h", [], nil),
            ("/a b", "h", [], nil),
            ("/", "h\r\nX: y", [], nil),
            ("/", "h", [(name: "Bad Name", value: "v")], nil),
            ("/", "h", [(name: "Host", value: "other")], nil),
            ("/", "h", [(name: "sec-websocket-key", value: "x")], nil),
            ("/", "h", [(name: "Origin", value: "a\nb")], nil),
            ("/", "h", [], "c2hvcnQ="),
        ]
        for (path, host, fields, key) in cases {
            #expect(throws: WebSocketClientHandshakeError.self, "\(path) \(host) \(fields)") {
                try WebSocketClientHandshake(path: path, host: host, fields: fields, key: key)
            }
        }
    }
}
