import HTTP1
import Testing

@Suite struct ParserErrorTests {
    @Test func garbageIsBadRequestWithLlhttpReason() throws {
        let failure = try #require(failureOf(parse("\u{1}\u{2}garbage\r\n\r\n").first))
        #expect(failure.status == 400)
        #expect(failure.code == "bad_request")
        #expect(failure.message.contains("Invalid method encountered"))
    }

    @Test func invalidHeaderValueCharIsNamed() throws {
        let failure = try #require(failureOf(parse("GET / HTTP/1.1\r\nX: a\u{1}b\r\n\r\n").first))
        #expect(failure.status == 400)
        #expect(failure.message.contains("Invalid header value char"))
    }

    @Test func contentLengthWithTransferEncodingIsRejected() throws {
        let input = "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
        let events = parse(input)
        #expect(events.count == 1)
        let failure = try #require(failureOf(events.first))
        #expect(failure.status == 400)
        #expect(failure.message.contains("Transfer-Encoding can't be present with Content-Length"))
    }

    @Test func bareLineFeedsAreRejectedInStrictMode() {
        #expect(failureOf(parse("GET / HTTP/1.1\nHost: h\n\n").first)?.status == 400)
    }

    @Test func failureEndsTheParser() {
        let parser = HTTPRequestParser(limits: roomyLimits)
        let events = feed(parser, "GET / HTTP/1.1\r\n\r\nBAD\r\n")
        #expect(events.count == 2)
        #expect(requestOf(events.first) != nil)
        #expect(failureOf(events.last)?.status == 400)
        #expect(feed(parser, "GET / HTTP/1.1\r\n\r\n").isEmpty)
        #expect(parser.finish().isEmpty)
    }

    @Test func finishMidRequestIsBadRequest() throws {
        let parser = HTTPRequestParser(limits: roomyLimits)
        #expect(feed(parser, "POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab").isEmpty)
        #expect(parser.isMidMessage)
        let failure = try #require(failureOf(parser.finish().first))
        #expect(failure.status == 400)
        #expect(failure.code == "bad_request")
        #expect(parser.finish().isEmpty)
        #expect(feed(parser, "cde").isEmpty)
    }

    @Test func finishBetweenRequestsIsQuiet() {
        let parser = HTTPRequestParser(limits: roomyLimits)
        #expect(parser.finish().isEmpty)
        let other = HTTPRequestParser(limits: roomyLimits)
        #expect(feed(other, "GET / HTTP/1.1\r\n\r\n").count == 1)
        #expect(other.finish().isEmpty)
    }
}
