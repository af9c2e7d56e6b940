import HTTP1
import Testing

@Suite struct KeepAliveTests {
    @Test(arguments: [
        ("GET / HTTP/1.1\r\n\r\n", true),
        ("GET / HTTP/1.1\r\nConnection: close\r\n\r\n", false),
        ("GET / HTTP/1.1\r\nConnection: keep-alive, CLOSE\r\n\r\n", false),
        ("GET / HTTP/1.0\r\n\r\n", false),
        ("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true),
    ])
    func keepAliveFlag(input: String, expected: Bool) throws {
        let get = try #require(requestOf(parse(input).first))
        #expect(get.keepAlive == expected)
    }

    @Test func versionOneZeroIsReported() throws {
        let get = try #require(requestOf(parse("GET / HTTP/1.0\r\n\r\n").first))
        #expect(get.versionMajor == 1)
        #expect(get.versionMinor == 0)
    }

    @Test func nothingIsParsedAfterAClosingRequest() {
        let parser = HTTPRequestParser(limits: roomyLimits)
        let events = feed(parser, "GET /1 HTTP/1.1\r\nConnection: close\r\n\r\nGET /2 HTTP/1.1\r\n\r\n")
        #expect(events.count == 1)
        #expect(requestOf(events.first)?.target == "/1")
        #expect(feed(parser, "GET /3 HTTP/1.1\r\n\r\n").isEmpty)
        #expect(parser.finish().isEmpty)
    }
}
