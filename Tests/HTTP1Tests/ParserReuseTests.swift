import HTTP1
import Testing

/// One parser serves every request of a connection and keeps buffers and strings from request to request
/// (RFC 9112 §9.3 persistence): nothing of one request may show up in the next, and limits count per request.
@Suite struct ParserReuseTests {
    @Test func longFieldOfOneRequestDoesNotLeakIntoTheNext() throws {
        let long = String(repeating: "v", count: 6000)
        let parser = HTTPRequestParser(limits: roomyLimits)
        let events = feed(parser, "GET /a HTTP/1.1\r\nX-Long: \(long)\r\n\r\nGET /b HTTP/1.1\r\nX-Long: s\r\n\r\n")
        #expect(events.count == 2)
        #expect(requestOf(events.first)?.fields["x-long"] == long)
        let second = try #require(requestOf(events.last))
        #expect(second.target == "/b")
        #expect(Array(second.fields) == [HTTPField(name: "X-Long", value: "s")])
    }

    @Test func headLimitIsCountedPerRequest() {
        // Each head counts 3 + 2 + 3 + 1 + 10 = 19 bytes: two of them together would be over 30.
        let limits = HTTPParserLimits(maxHeaderBytes: 30, maxBodyBytes: 0)
        let one = "GET /a HTTP/1.1\r\nX: 0123456789\r\n\r\n"
        let events = parse(String(repeating: one, count: 3), limits: limits)
        #expect(events.count == 3)
        #expect(events.allSatisfy { requestOf($0) != nil })
    }

    @Test func fieldCountLimitIsCountedPerRequest() {
        let limits = HTTPParserLimits(maxHeaderBytes: 1024, maxBodyBytes: 0, maxHeaderFields: 2)
        let one = "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\n\r\n"
        #expect(parse(one + one + one, limits: limits).allSatisfy { requestOf($0) != nil })
        let tooMany = "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n"
        #expect(failureOf(parse(one + tooMany, limits: limits).last)?.status == 431)
    }

    @Test func bodyLimitIsCountedPerRequest() {
        let limits = HTTPParserLimits(maxHeaderBytes: 1024, maxBodyBytes: 4)
        let one = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
        let events = parse(one + one, limits: limits)
        #expect(events.compactMap { requestOf($0)?.body } == [Array("abc".utf8), Array("abc".utf8)])
    }

    @Test func fieldsAreReadAfreshWhateverThePreviousRequestSent() {
        let input = "GET / HTTP/1.1\r\nHost: a\r\nAccept: x\r\nX-Three: 3\r\n\r\n"
            + "GET / HTTP/1.1\r\nHost: b\r\nAccept: x\r\n\r\n"
            + "GET / HTTP/1.1\r\nhost: b\r\nX: x\r\nAccept: x\r\nX-Four: 4\r\n\r\n"
            + "GET / HTTP/1.1\r\n\r\n"
        let fields = parse(input).compactMap { requestOf($0).map { Array($0.fields) } }
        #expect(fields == [
            [HTTPField(name: "Host", value: "a"), HTTPField(name: "Accept", value: "x"), HTTPField(name: "X-Three", value: "3")],
            [HTTPField(name: "Host", value: "b"), HTTPField(name: "Accept", value: "x")],
            [
                HTTPField(name: "host", value: "b"), HTTPField(name: "X", value: "x"), HTTPField(name: "Accept", value: "x"),
                HTTPField(name: "X-Four", value: "4"),
            ],
            [],
        ])
    }

    @Test func targetIsReadAfreshWhateverThePreviousRequestSent() {
        let input = "GET /same?q=1 HTTP/1.1\r\n\r\nGET /same?q=1 HTTP/1.1\r\n\r\nGET /same?q=2 HTTP/1.1\r\n\r\n"
            + "GET /same HTTP/1.1\r\n\r\nGET http://h.test/same?q=3 HTTP/1.1\r\n\r\nGET http://h.test/same?q=3 HTTP/1.1\r\n\r\n"
        let requests = parse(input).compactMap { requestOf($0) }
        #expect(requests.map(\.target) == [
            "/same?q=1", "/same?q=1", "/same?q=2", "/same", "http://h.test/same?q=3", "http://h.test/same?q=3",
        ])
        #expect(requests.map(\.path) == ["/same", "/same", "/same", "/same", "/same", "/same"])
        #expect(requests.map(\.query) == ["q=1", "q=1", "q=2", nil, "q=3", "q=3"])
    }

    @Test func parsedRequestEqualsOneBuiltFromTheSameParts() throws {
        for target in ["/a?b?c", "/", "/?", "*", "http://h.test", "HTTPS://h.test?x", "example.test:443"] {
            let method = target.contains(":443") ? "CONNECT" : (target == "*" ? "OPTIONS" : "GET")
            let events = parse("\(method) \(target) HTTP/1.1\r\nHost: h\r\n\r\n")
            let parsed: HTTPRequest
            switch events.first {
            case .request(let request)?, .upgrade(let request, _)?: parsed = request
            default: Issue.record("\(target): \(events)"); continue
            }
            let built = HTTPRequest(
                method: method, target: target, fields: HTTPFields([HTTPField(name: "Host", value: "h")]),
                isUpgrade: parsed.isUpgrade)
            #expect(parsed == built, "\(target)")
        }
    }

    @Test func invalidUTF8IsRepairedTheSameOnEveryRequest() {
        let one: [UInt8] = Array("GET / HTTP/1.1\r\nX: a".utf8) + [0xFF] + Array("b\r\n\r\n".utf8)
        let values = parse([one + one]).compactMap { requestOf($0)?.fields["x"] }
        #expect(values == ["a\u{FFFD}b", "a\u{FFFD}b"])
    }

    @Test func expectIsReadPerRequest() {
        let input = "POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\na"
            + "POST / HTTP/1.1\r\nContent-Length: 1\r\n\r\nb"
        let events = parse(input)
        #expect(events.count == 3)
        #expect(events.first == .continueExpected)
        #expect(events.dropFirst().compactMap { requestOf($0)?.body } == [[0x61], [0x62]])
    }
}
