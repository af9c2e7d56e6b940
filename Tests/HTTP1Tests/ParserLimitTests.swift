import HTTP1
import Testing

@Suite struct ParserLimitTests {
    @Test func longFieldFailsWith431BeforeTheHeadEnds() throws {
        let limits = HTTPParserLimits(maxHeaderBytes: 100, maxBodyBytes: 100)
        let parser = HTTPRequestParser(limits: limits)
        let events = feed(parser, "GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 150))
        let failure = try #require(failureOf(events.first))
        #expect(failure.status == 431)
        #expect(failure.code == "header_fields_too_large")
        #expect(failure.message.contains("100 bytes"))
        #expect(feed(parser, "\r\n\r\n").isEmpty)
    }

    @Test func longTargetFailsWith431() throws {
        let limits = HTTPParserLimits(maxHeaderBytes: 64, maxBodyBytes: 100)
        let events = parse("GET /" + String(repeating: "p", count: 100), limits: limits)
        #expect(failureOf(events.first)?.status == 431)
    }

    @Test func headAtTheLimitPasses() throws {
        // Counted bytes: "GET" 3 + "/" 1 + "1.1" 3 + "X" 1 + "yz" 2 = 10.
        let input = "GET / HTTP/1.1\r\nX: yz\r\n\r\n"
        #expect(requestOf(parse(input, limits: HTTPParserLimits(maxHeaderBytes: 10, maxBodyBytes: 0)).first) != nil)
        #expect(failureOf(parse(input, limits: HTTPParserLimits(maxHeaderBytes: 9, maxBodyBytes: 0)).first)?.status == 431)
    }

    @Test func declaredBodyOverLimitFailsWith413WithoutTheBody() throws {
        let limits = HTTPParserLimits(maxHeaderBytes: 1024, maxBodyBytes: 10)
        let parser = HTTPRequestParser(limits: limits)
        let events = feed(parser, "POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n")
        let failure = try #require(failureOf(events.first))
        #expect(failure.status == 413)
        #expect(failure.code == "payload_too_large")
        #expect(failure.message.contains("11 bytes"))
    }

    @Test func bodyAtTheLimitPasses() throws {
        let limits = HTTPParserLimits(maxHeaderBytes: 1024, maxBodyBytes: 10)
        let post = try #require(requestOf(parse("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789", limits: limits).first))
        #expect(post.body.count == 10)
    }

    @Test func chunkedBodyGrowingOverLimitFailsWith413() throws {
        let limits = HTTPParserLimits(maxHeaderBytes: 1024, maxBodyBytes: 8)
        let parser = HTTPRequestParser(limits: limits)
        #expect(feed(parser, "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n").isEmpty)
        let events = feed(parser, "5\r\nworld\r\n0\r\n\r\n")
        #expect(failureOf(events.first)?.status == 413)
        #expect(events.count == 1)
    }

    @Test func trailerFieldsCountAgainstTheHeadLimit() {
        // Head counts 32 bytes ("POST" "/" "1.1" "Transfer-Encoding" "chunked"); the trailer pushes it past 40.
        let limits = HTTPParserLimits(maxHeaderBytes: 40, maxBodyBytes: 100)
        let input = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\nX: 0123456789\r\n\r\n"
        #expect(failureOf(parse(input, limits: limits).first)?.status == 431)
    }

    @Test(arguments: ["2.0", "3.0", "0.9"])
    func otherMajorVersionsFailWith505(version: String) throws {
        let failure = try #require(failureOf(parse("GET / HTTP/\(version)\r\n\r\n").first))
        #expect(failure.status == 505)
        #expect(failure.code == "http_version_not_supported")
        #expect(failure.message.contains("HTTP/\(version)"))
    }

    @Test func unknownMinorOfVersionOneIsBadRequest() {
        #expect(failureOf(parse("GET / HTTP/1.2\r\n\r\n").first)?.status == 400)
    }

    @Test func limitFailuresAreTheSameForEverySplit() {
        let small = HTTPParserLimits(maxHeaderBytes: 40, maxBodyBytes: 4)
        let longField = "GET / HTTP/1.1\r\nX-Long: 0123456789012345678901234567890123\r\n\r\n"
        let chunked = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n"
        #expect(failureOf(expectSameEventsForEverySplit(Array(longField.utf8), limits: small).first)?.status == 431)
        #expect(failureOf(expectSameEventsForEverySplit(Array(chunked.utf8), limits: small).first)?.status == 413)
    }
}
