import Testing
import WebSocket

/// The opening handshake checks (RFC 6455 §4.2.1) and accept value (§4.2.2).
@Suite struct HandshakeTests {
    static let key = "dGhlIHNhbXBsZSBub25jZQ=="
    static let good: [(name: String, value: String)] = [
        ("Host", "example.com"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
        ("Sec-WebSocket-Key", key), ("Sec-WebSocket-Version", "13"),
    ]

    /// `good` with the field `name` removed, then `extra` appended.
    static func fields(without name: String? = nil, adding extra: [(name: String, value: String)] = [])
        -> [(name: String, value: String)]
    {
        good.filter { $0.name != name } + extra
    }

    func rejection(_ fields: [(name: String, value: String)], method: String = "GET") -> WebSocketHandshakeError? {
        if case .failure(let error) = WebSocketHandshake.validate(method: method, fields: fields) { return error }
        return nil
    }

    @Test func rfcAcceptVector() {
        #expect(WebSocketHandshake.acceptValue(forKey: Self.key) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func validHandshake() {
        let result = WebSocketHandshake.validate(method: "GET", fields: Self.good)
        #expect(result == .success(WebSocketHandshakeAccept(acceptValue: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")))
    }

    @Test func namesAnyCaseAndTokenLists() {
        let fields: [(name: String, value: String)] = [
            ("UPGRADE", "h2c, WebSocket"), ("connection", "keep-alive,  Upgrade "),
            ("sec-websocket-key", "  \(Self.key) "), ("SEC-WEBSOCKET-VERSION", "13"),
        ]
        #expect(rejection(fields) == nil)
    }

    /// Token lists read byte by byte: empty elements, tabs, a token inside a longer one, non-ASCII text around them.
    @Test(arguments: [
        ("websocket", true), (",,websocket,,", true), ("\t websocket\t", true), ("h2c,\tWebSocket ,x", true),
        ("websockets", false), ("web socket", false), ("", false), (",", false), ("é, websocket", true), ("websocketé", false),
    ])
    func upgradeTokenLists(value: String, valid: Bool) {
        let failure = rejection(Self.fields(without: "Upgrade", adding: [("Upgrade", value)]))
        #expect((failure == nil) == valid, "\(value)")
    }

    /// A field name of the right length but another name (same length as `Upgrade`, `Connection`) is not taken.
    @Test func sameLengthNamesAreNotTheHandshakeFields() {
        let fields = Self.fields(without: "Upgrade", adding: [("Upgradx", "websocket")])
        #expect(rejection(fields)?.code == "upgrade_required")
        let other = Self.fields(without: "Connection", adding: [("Connectioñ", "upgrade"), ("Xonnection", "upgrade")])
        #expect(rejection(other)?.status == 400)
    }

    @Test func connectionTokenInASecondField() {
        let fields = Self.fields(without: "Connection", adding: [("Connection", "keep-alive"), ("Connection", "upgrade")])
        #expect(rejection(fields) == nil)
    }

    @Test(arguments: ["POST", "get", "HEAD"])
    func methodMustBeGET(method: String) {
        #expect(rejection(Self.good, method: method)?.status == 400)
        #expect(rejection(Self.good, method: method)?.code == "invalid_websocket_handshake")
    }

    @Test func missingUpgradeIs426() throws {
        let failure = try #require(rejection(Self.fields(without: "Upgrade")))
        #expect(failure.status == 426)
        #expect(failure.code == "upgrade_required")
        // RFC 9110 §15.5.22 and §7.8: a 426 names the protocol, and a sender of Upgrade lists it in Connection.
        #expect(failure.extraFields.map { "\($0.name): \($0.value)" } == ["Upgrade: websocket", "Connection: Upgrade"])
    }

    @Test func upgradeWithoutWebsocketTokenIs400() {
        let failure = rejection(Self.fields(without: "Upgrade", adding: [("Upgrade", "h2c, websocketx")]))
        #expect(failure?.status == 400)
        #expect(failure?.code == "invalid_websocket_handshake")
    }

    @Test(arguments: [nil, "keep-alive", "upgraded"])
    func connectionMustListUpgrade(value: String?) {
        let extra: [(name: String, value: String)] = value.map { [("Connection", $0)] } ?? []
        let failure = rejection(Self.fields(without: "Connection", adding: extra))
        #expect(failure?.status == 400)
        #expect(failure?.code == "invalid_websocket_handshake")
    }

    @Test(arguments: [nil, "8", "12, 13", "14"])
    func versionMustBe13(value: String?) throws {
        let extra: [(name: String, value: String)] = value.map { [("Sec-WebSocket-Version", $0)] } ?? []
        let failure = try #require(rejection(Self.fields(without: "Sec-WebSocket-Version", adding: extra)))
        #expect(failure.status == 426)
        #expect(failure.code == "unsupported_websocket_version")
        // RFC 6455 §4.4 (the versions supported) and RFC 9110 §15.5.22, §7.8 (every 426 says what to upgrade to).
        #expect(failure.extraFields.map { "\($0.name): \($0.value)" }
            == ["Sec-WebSocket-Version: 13", "Upgrade: websocket", "Connection: Upgrade"])
    }

    @Test(arguments: [
        [], [key, key], ["AAAAAAAAAAAAAAAAAAAAAAAA"],
        ["dGhlIHNhbXBsZSBub25jZQ"], ["dGhlIHNhbXBsZSBub25jZQ=!"], ["AAAAAAAAAAAAAAAAAAAA"], ["not base64 at all!!!"],
        // 17 bytes (24 characters with one `=`), 15 bytes, padding short or misplaced, whitespace inside.
        ["dGhlIHNhbXBsZSBub25jZTE="], ["dGhlIHNhbXBsZSBub25j"], ["dGhlIHNhbXBsZSBub25jZQ="], ["dGhlIHNhbXBsZSBub25jZ==Q"],
        ["dGhl IHNhbXBsZSBub25jZQ="], ["dGhlIHNhbXBsZSBub25jZQ=\n="],
    ] as [[String]])
    func keyMustBeOneBase64Of16Bytes(keys: [String]) {
        let failure = rejection(Self.fields(without: "Sec-WebSocket-Key", adding: keys.map { ("Sec-WebSocket-Key", $0) }))
        #expect(failure?.status == 400)
        #expect(failure?.code == "invalid_websocket_handshake")
    }

    @Test func errorsAreEquatableIncludingExtraFields() {
        let a = WebSocketHandshakeError(status: 426, code: "c", message: "m", extraFields: [("A", "1")])
        #expect(a == WebSocketHandshakeError(status: 426, code: "c", message: "m", extraFields: [("A", "1")]))
        #expect(a != WebSocketHandshakeError(status: 426, code: "c", message: "m", extraFields: [("A", "2")]))
    }
}
