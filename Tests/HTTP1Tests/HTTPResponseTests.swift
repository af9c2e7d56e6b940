import HTTP1
import Testing
import StatehouseTestClients

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

    /// RFC 9110 §7.8: a closing 426 still lists `Upgrade` in `Connection`, on its own line beside `close` (§5.3).
    @Test func connectionUpgradeSurvivesAClose() {
        let response = HTTPResponse(status: 426, fields: [
            HTTPField(name: "Upgrade", value: "websocket"), HTTPField(name: "Connection", value: "Upgrade"),
        ])
        #expect(text(response.serialized(keepAlive: false))
            == "HTTP/1.1 426 Upgrade Required\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nContent-Length: 0\r\n"
                + "Connection: close\r\n\r\n")
    }

    @Test func switchingProtocolsAndNoContentCarryNoLength() {
        let upgrade = HTTPResponse(status: 101, fields: [
            HTTPField(name: "Upgrade", value: "websocket"), HTTPField(name: "Connection", value: "Upgrade"),
        ])
        #expect(text(upgrade.serialized(keepAlive: true))
            == "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
        #expect(text(HTTPResponse(status: 204, body: [1]).serialized(keepAlive: true)) == "HTTP/1.1 204 No Content\r\n\r\n")
        // RFC 9110 §8.6: a 304 must not carry a Content-Length other than the 200's size; it carries none.
        #expect(text(HTTPResponse(status: 304, fields: [HTTPField(name: "ETag", value: "\"e-1\"")]).serialized(keepAlive: true))
            == "HTTP/1.1 304 Not Modified\r\nETag: \"e-1\"\r\n\r\n")
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

@Suite struct HTTPResponseAppendTests {
    @Test func serializeIntoAppendsTheSameBytesAsSerialized() {
        let responses = [
            HTTPResponse(status: 200, fields: [HTTPField(name: "Content-Type", value: "application/json")], body: [0x7B, 0x7D]),
            HTTPResponse(status: 204, fields: [HTTPField(name: "ETag", value: "\"3\"")]),
            HTTPResponse(status: 404, body: Array("missing".utf8)),
        ]
        var gathered = Array("prefix".utf8)
        var expected = gathered
        for (index, response) in responses.enumerated() {
            let keepAlive = index != 2
            response.serialize(into: &gathered, keepAlive: keepAlive, headOnly: index == 0)
            expected += response.serialized(keepAlive: keepAlive, headOnly: index == 0)
        }
        #expect(gathered == expected)
        #expect(String(decoding: gathered, as: UTF8.self).hasPrefix("prefixHTTP/1.1 200 OK\r\n"))
        #expect(String(decoding: gathered, as: UTF8.self).hasSuffix("Connection: close\r\n\r\nmissing"))
    }

    @Test func controlBytesAreReplacedWhereverTheyFallInLongFields() {
        // CR, LF and NUL at offsets on both sides of 8-byte boundaries, and other control bytes kept.
        var value = Array(String(repeating: "abcdefgh", count: 4).utf8)
        for (offset, byte) in [(0, 0x0D), (7, 0x0A), (8, 0x00), (15, 0x0D), (21, 0x09), (31, 0x0A)] as [(Int, UInt8)] {
            value[offset] = byte
        }
        let text = String(decoding: value, as: UTF8.self)
        let response = HTTPResponse(status: 200, fields: [HTTPField(name: "X-\r\nName", value: text)])
        let expectedValue = value.map { $0 == 0x0D || $0 == 0x0A || $0 == 0 ? UInt8(ascii: " ") : $0 }
        let expected = Array("HTTP/1.1 200 OK\r\nX-  Name: ".utf8) + expectedValue
            + Array("\r\nContent-Length: 0\r\n\r\n".utf8)
        #expect(response.serialized(keepAlive: true) == expected)
    }

    @Test(arguments: [0, 7, 9, 10, 99, 100, 12345, 1_000_000])
    func contentLengthIsTheBodySizeInDecimal(size: Int) {
        let bytes = HTTPResponse(status: 200, body: Array(repeating: 0x61, count: size)).serialized(keepAlive: true)
        let head = "HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\n\r\n"
        #expect(bytes.count == head.utf8.count + size)
        #expect(Array(bytes.prefix(head.utf8.count)) == Array(head.utf8))
    }

    @Test func connectionFieldsAreKeptOnlyWhileKeepingAlive() {
        let response = HTTPResponse(status: 200, fields: [
            HTTPField(name: "CONNECTION", value: "keep-alive"), HTTPField(name: "Content-LENGTH", value: "7"),
            HTTPField(name: "Connectio", value: "x"),
        ])
        #expect(String(decoding: response.serialized(keepAlive: true), as: UTF8.self)
            == "HTTP/1.1 200 OK\r\nCONNECTION: keep-alive\r\nConnectio: x\r\nContent-Length: 0\r\n\r\n")
        #expect(String(decoding: response.serialized(keepAlive: false), as: UTF8.self)
            == "HTTP/1.1 200 OK\r\nConnectio: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    }

    @Test(arguments: [99, 600, -1, 1000])
    func statusOutsideTheTableStillGetsALine(status: Int) {
        let bytes = HTTPResponse(status: status).serialized(keepAlive: true)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 \(status) \r\n"))
    }
}

@Suite struct HTTPResponseDirectWriteTests {
    /// `serialized(writingWith:)` writes exactly the bytes `serialized()` returns, for random responses.
    @Test func writingIntoProvidedMemoGivesTheSameBytes() {
        var random = SeededGenerator(seed: 0xD1EC7)
        let names = ["Content-Type", "ETag", "Content-Length", "content-length", "Connection", "X-\r\nInjected", "Vary"]
        let values = ["application/json", "\"3\"", "99", "close", "a\rb\nc\0d", "", String(repeating: "v", count: 40)]
        for round in 0..<500 {
            let status = [100, 101, 200, 201, 204, 304, 404, 408, 431, 500, 599, 600][Int(random.next() % 12)]
            let fields = (0..<Int(random.next() % 5)).map { _ in
                HTTPField(name: names[Int(random.next() % UInt64(names.count))], value: values[Int(random.next() % UInt64(values.count))])
            }
            let body = (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let response = HTTPResponse(status: status, fields: fields, body: body)
            let keepAlive = random.next() % 2 == 0
            let headOnly = random.next() % 3 == 0
            var calls = 0
            let written = response.serialized(keepAlive: keepAlive, headOnly: headOnly) { count, write in
                calls += 1
                return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                    write(UnsafeMutableRawPointer(buffer.baseAddress!))
                    initialized = count
                }
            }
            #expect(calls == 1)
            #expect(written == response.serialized(keepAlive: keepAlive, headOnly: headOnly), "round \(round)")
        }
    }
}
