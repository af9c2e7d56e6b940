import HTTP1
import Testing

@Suite struct HTTPRequestParserTests {
    @Test func simpleGet() throws {
        let events = parse("GET /stores/counter?since=3&x=y HTTP/1.1\r\nHost: example.test\r\nAccept:  */* \r\n\r\n")
        #expect(events.count == 1)
        let get = try #require(requestOf(events.first))
        #expect(get.method == "GET")
        #expect(get.target == "/stores/counter?since=3&x=y")
        #expect(get.path == "/stores/counter")
        #expect(get.query == "since=3&x=y")
        #expect(get.versionMajor == 1)
        #expect(get.versionMinor == 1)
        #expect(Array(get.fields) == [
            HTTPField(name: "Host", value: "example.test"), HTTPField(name: "Accept", value: "*/*"),
        ])
        #expect(get.body.isEmpty)
        #expect(get.keepAlive)
        #expect(!get.isUpgrade)
    }

    @Test func targetWithoutQueryHasNilQuery() throws {
        let get = try #require(requestOf(parse("GET /a%20b HTTP/1.1\r\n\r\n").first))
        #expect(get.path == "/a%20b")
        #expect(get.query == nil)
    }

    @Test func emptyQueryIsEmptyString() throws {
        let get = try #require(requestOf(parse("GET /a? HTTP/1.1\r\n\r\n").first))
        #expect(get.path == "/a")
        #expect(get.query == "")
    }

    @Test func postWithContentLength() throws {
        let events = parse("POST /actions HTTP/1.1\r\nContent-Length: 13\r\n\r\n{\"type\":\"up\"}")
        let post = try #require(requestOf(events.first))
        #expect(events.count == 1)
        #expect(post.method == "POST")
        #expect(post.body == Array("{\"type\":\"up\"}".utf8))
        #expect(post.fields["content-length"] == "13")
    }

    @Test func postWithChunkedBodyIsDechunkedAndTrailersDropped() throws {
        let input = "POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n"
        let post = try #require(requestOf(parse(input).first))
        #expect(String(decoding: post.body, as: UTF8.self) == "hello, world")
        #expect(post.fields.count == 1)
        #expect(post.fields["X-Trailer"] == nil)
    }

    @Test func pipelinedRequestsArriveInOrder() throws {
        let input = "GET /1 HTTP/1.1\r\n\r\n"
            + "POST /2 HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
            + "DELETE /3 HTTP/1.1\r\n\r\n"
        let events = parse(input)
        #expect(events.count == 3)
        #expect(events.compactMap { requestOf($0)?.target } == ["/1", "/2", "/3"])
        #expect(events.compactMap { requestOf($0)?.method } == ["GET", "POST", "DELETE"])
        #expect(requestOf(events[1])?.body == Array("abc".utf8))
    }

    @Test func isMidMessageTracksPartialRequests() {
        let parser = HTTPRequestParser(limits: roomyLimits)
        #expect(!parser.isMidMessage)
        #expect(feed(parser, "GET / HT").isEmpty)
        #expect(parser.isMidMessage)
        #expect(feed(parser, "TP/1.1\r\n\r\n").count == 1)
        #expect(!parser.isMidMessage)
    }

    @Test func emptyFeedReturnsNothing() {
        let parser = HTTPRequestParser(limits: roomyLimits)
        #expect(parser.feed(UnsafeRawBufferPointer(start: nil, count: 0)).isEmpty)
        #expect(feed(parser, "GET / HTTP/1.1\r\n\r\n").count == 1)
    }

    @Test func repeatedFieldNamesKeepEveryValue() throws {
        let get = try #require(requestOf(parse("GET / HTTP/1.1\r\nX-A: 1\r\nx-a: 2\r\nEmpty:\r\n\r\n").first))
        #expect(get.fields.values("X-A") == ["1", "2"])
        #expect(get.fields["empty"] == "")
    }
}
