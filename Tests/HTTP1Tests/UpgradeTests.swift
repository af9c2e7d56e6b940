import HTTP1
import Testing

@Suite struct UpgradeTests {
    static let handshake = "GET /stores/counter/watch HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    /// A masked text frame "Hello" (RFC 6455 §5.7).
    static let frame: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]

    @Test func upgradeKeepsTrailingFrameAsLeftover() throws {
        let events = parse([Array(Self.handshake.utf8) + Self.frame])
        #expect(events.count == 1)
        guard case .upgrade(let request, let leftover)? = events.first else {
            Issue.record("expected .upgrade, got \(events)")
            return
        }
        #expect(request.isUpgrade)
        #expect(request.path == "/stores/counter/watch")
        #expect(request.fields.containsToken("upgrade", in: "connection"))
        #expect(request.fields["Sec-WebSocket-Key"] == "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(leftover == Self.frame)
    }

    @Test func upgradeWithNothingAfterHasEmptyLeftover() {
        let events = parse(Self.handshake)
        guard case .upgrade(_, let leftover)? = events.first else {
            Issue.record("expected .upgrade, got \(events)")
            return
        }
        #expect(leftover.isEmpty)
    }

    @Test func upgradeSplitAtEveryByteGivesSameEvents() {
        let events = expectSameEventsForEverySplit(Array(Self.handshake.utf8) + Self.frame)
        guard case .upgrade(_, let leftover)? = events.first else {
            Issue.record("expected .upgrade, got \(events)")
            return
        }
        #expect(leftover == Self.frame)
    }

    @Test func parserIgnoresInputAfterUpgrade() {
        let parser = HTTPRequestParser(limits: roomyLimits)
        #expect(feed(parser, Self.handshake).count == 1)
        #expect(feed(parser, "GET / HTTP/1.1\r\n\r\n").isEmpty)
        #expect(parser.finish().isEmpty)
    }

    @Test func requestsBeforeTheUpgradeComeFirst() {
        let events = parse("GET /first HTTP/1.1\r\n\r\n" + Self.handshake + "tail")
        #expect(events.count == 2)
        #expect(requestOf(events.first)?.target == "/first")
        guard case .upgrade(_, let leftover)? = events.last else {
            Issue.record("expected .upgrade last, got \(events)")
            return
        }
        #expect(leftover == Array("tail".utf8))
    }

    @Test func upgradeHeaderWithoutConnectionUpgradeIsPlainRequest() throws {
        let get = try #require(requestOf(parse("GET / HTTP/1.1\r\nUpgrade: websocket\r\n\r\n").first))
        #expect(!get.isUpgrade)
    }

    @Test func connectIsAnUpgrade() {
        let events = parse("CONNECT example.test:443 HTTP/1.1\r\n\r\nxx")
        guard case .upgrade(let request, let leftover)? = events.first else {
            Issue.record("expected .upgrade, got \(events)")
            return
        }
        #expect(request.method == "CONNECT")
        #expect(leftover == Array("xx".utf8))
    }
}
