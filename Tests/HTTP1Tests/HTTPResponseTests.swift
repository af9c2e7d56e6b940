import HTTP1
import Testing

@Suite struct HTTPResponseTests {
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func okWithBody() {
        let response = HTTPResponse(
            status: 200, fields: [HTTPField(name: "Content-Type", value: "application/json")], body: Array("{}".utf8))
        #expect(text(response.serialized(keepAlive: true))
            == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
    }

    @Test func closingConnectionAddsConnectionClose() {
        let response = HTTPResponse(status: 404, body: Array("no".utf8))
        #expect(text(response.serialized(keepAlive: false))
            == "HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno")
    }

    @Test func headOmitsBodyButKeepsItsLength() {
        let response = HTTPResponse(status: 200, body: Array("hello".utf8))
        #expect(text(response.serialized(keepAlive: true, headOnly: true))
            == "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n")
    }

    @Test func emptyBodyStillHasContentLength() {
        #expect(text(HTTPResponse(status: 202).serialized(keepAlive: true))
            == "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n")
    }

    @Test func givenContentLengthAndConnectionAreReplaced() {
        let response = HTTPResponse(
            status: 200,
            fields: [HTTPField(name: "content-length", value: "99"), HTTPField(name: "Connection", value: "keep-alive")],
            body: [0x41])
        #expect(text(response.serialized(keepAlive: false))
            == "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nConnection: close\r\n\r\nA")
    }

    @Test func switchingProtocolsAndNoContentCarryNoLength() {
        let upgrade = HTTPResponse(status: 101, fields: [
            HTTPField(name: "Upgrade", value: "websocket"), HTTPField(name: "Connection", value: "Upgrade"),
        ])
        #expect(text(upgrade.serialized(keepAlive: true))
            == "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
        #expect(text(HTTPResponse(status: 204, body: [1]).serialized(keepAlive: true)) == "HTTP/1.1 204 No Content\r\n\r\n")
    }

    @Test func lineBreaksInFieldsCannotSplitTheResponse() {
        let response = HTTPResponse(status: 200, fields: [HTTPField(name: "X", value: "a\r\nSet-Cookie: evil")])
        #expect(text(response.serialized(keepAlive: true))
            == "HTTP/1.1 200 OK\r\nX: a  Set-Cookie: evil\r\nContent-Length: 0\r\n\r\n")
    }

    @Test(arguments: [
        (200, "OK"), (101, "Switching Protocols"), (400, "Bad Request"), (413, "Content Too Large"),
        (431, "Request Header Fields Too Large"), (500, "Internal Server Error"), (505, "HTTP Version Not Supported"),
        (299, "Success"), (499, "Client Error"), (700, ""),
    ])
    func reasonPhrases(status: Int, phrase: String) {
        #expect(httpReasonPhrase(status) == phrase)
    }

    @Test func serializedResponseParsesBackAsHTTP() {
        let bytes = HTTPResponse(status: 431, body: Array("too big".utf8)).serialized(keepAlive: false)
        let head = text(bytes).split(separator: "\r\n", omittingEmptySubsequences: false)
        #expect(head.first == "HTTP/1.1 431 Request Header Fields Too Large")
        #expect(head.last == "too big")
    }
}
