import HTTP1
import Testing

/// `HTTPResponseParser`: the answer to an opening handshake (101 and its leftover frames), an error response with its
/// body, split input, limits, and broken input.
@Suite struct HTTPResponseParserTests {
    static let switching = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
    /// An unmasked text frame "Hello" (RFC 6455 §5.7), as a server sends it.
    static let frame: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
    static let notFound = "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 27\r\n\r\n"
        + #"{"error":{"code":"nope"}}  "#

    /// Feeds `pieces` in order; returns the first result, and whether any piece after it got one too.
    private func parse(_ pieces: [[UInt8]], finish: Bool = false, limits: HTTPParserLimits? = nil) -> HTTPResponseParseResult? {
        let parser = limits.map { HTTPResponseParser(limits: $0) } ?? HTTPResponseParser()
        var result: HTTPResponseParseResult?
        for piece in pieces {
            let next = piece.withUnsafeBytes { parser.feed($0) }
            if result == nil { result = next } else { #expect(next == nil, "a done parser ignores input") }
        }
        if finish, result == nil { result = parser.finish() }
        #expect(result == nil || parser.isDone)
        return result
    }

    @Test func switchingProtocolsKeepsTheFramesAfterTheHeadAsLeftover() {
        let result = parse([Array(Self.switching.utf8) + Self.frame])
        guard case .switchingProtocols(let head, let leftover)? = result else {
            Issue.record("expected .switchingProtocols, got \(String(describing: result))")
            return
        }
        #expect(head.status == 101)
        #expect(head.reason == "Switching Protocols")
        #expect(head.versionMajor == 1 && head.versionMinor == 1)
        #expect(head.fields["sec-websocket-accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(head.fields.containsToken("upgrade", in: "Connection"))
        #expect(leftover == Self.frame)
    }

    /// Every split of the 101 and its frame gives the same head; the leftover is what followed the head in the feed
    /// that completed it, plus nothing (later bytes are the caller's).
    @Test func everySplitOfTheHeadGivesTheSameResult() {
        let bytes = Array(Self.switching.utf8) + Self.frame
        let headCount = Self.switching.utf8.count
        for cut in 1..<bytes.count {
            let parser = HTTPResponseParser()
            let first = bytes[..<cut].withUnsafeBytes { parser.feed($0) }
            let second = first == nil ? bytes[cut...].withUnsafeBytes { parser.feed($0) } : nil
            guard case .switchingProtocols(let head, let leftover)? = first ?? second else {
                Issue.record("cut \(cut): no 101")
                continue
            }
            #expect(head.fields.count == 3)
            #expect(leftover == (cut < headCount ? Self.frame : Array(bytes[headCount..<cut])), "cut \(cut)")
        }
    }

    @Test func errorResponseComesWithItsBody() {
        let result = parse([Array(Self.notFound.utf8)])
        guard case .response(let head, let body)? = result else {
            Issue.record("expected .response, got \(String(describing: result))")
            return
        }
        #expect(head.status == 404)
        #expect(head.fields["Content-Type"] == "application/json")
        #expect(String(decoding: body, as: UTF8.self) == #"{"error":{"code":"nope"}}  "#)
    }

    @Test func aBodySplitOverFeedsIsWaitedFor() {
        let bytes = Array(Self.notFound.utf8)
        let parser = HTTPResponseParser()
        #expect(bytes[..<(bytes.count - 3)].withUnsafeBytes { parser.feed($0) } == nil)
        guard case .response(_, let body)? = bytes[(bytes.count - 3)...].withUnsafeBytes({ parser.feed($0) }) else {
            Issue.record("no response")
            return
        }
        #expect(body.count == 27)
    }

    @Test func chunkedAndCloseDelimitedBodies() {
        let chunked = "HTTP/1.1 401 Unauthorized\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"
        #expect(parse([Array(chunked.utf8)]) == .response(
            HTTPResponseHead(status: 401, reason: "Unauthorized", fields: HTTPFields([.init(name: "Transfer-Encoding", value: "chunked")])),
            body: Array("abcde".utf8)))
        let untilClose = "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\nlater"
        guard case .response(let head, let body)? = parse([Array(untilClose.utf8)], finish: true) else {
            Issue.record("no response at EOF")
            return
        }
        #expect(head.status == 503)
        #expect(body == Array("later".utf8))
    }

    /// An interim 100 Continue is skipped; the final answer counts.
    @Test func interimResponsesAreSkipped() {
        let bytes = "HTTP/1.1 100 Continue\r\n\r\n" + Self.switching
        guard case .switchingProtocols(let head, let leftover)? = parse([Array(bytes.utf8)]) else {
            Issue.record("no 101 after the 100")
            return
        }
        #expect(head.status == 101)
        #expect(leftover.isEmpty)
    }

    @Test func bodyOverTheLimitFails() {
        let limits = HTTPParserLimits(maxHeaderBytes: 1024, maxBodyBytes: 10)
        guard case .failure(let declared)? = parse([Array(Self.notFound.utf8)], limits: limits) else {
            Issue.record("a declared body over the limit must fail")
            return
        }
        #expect(declared.message.contains("27 bytes"))
        let chunked = "HTTP/1.1 400 Bad Request\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n12345678\r\n0\r\n\r\n"
        guard case .failure(let grown)? = parse([Array(chunked.utf8)], limits: limits) else {
            Issue.record("a chunked body over the limit must fail")
            return
        }
        #expect(grown.message.contains("limit of 10 bytes"))
    }

    @Test func headOverTheLimitFails() {
        let limits = HTTPParserLimits(maxHeaderBytes: 64, maxBodyBytes: 10)
        let big = "HTTP/1.1 101 Switching Protocols\r\nX-Padding: \(String(repeating: "p", count: 100))\r\n\r\n"
        guard case .failure(let error)? = parse([Array(big.utf8)], limits: limits) else {
            Issue.record("a head over the limit must fail")
            return
        }
        #expect(error.message.contains("64 bytes"))
    }

    @Test func brokenOrTruncatedInputFails() {
        guard case .failure(let garbage)? = parse([Array("SSH-2.0-OpenSSH\r\n".utf8)]) else {
            Issue.record("not HTTP must fail")
            return
        }
        #expect(garbage.message.hasPrefix("The response is not valid HTTP/1.1"))
        #expect(parse([Array("HTTP/1.1 101 Swi".utf8)], finish: true) == .failure(
            HTTPResponseParseError(message: "The connection ended before a complete HTTP response arrived.")))
        #expect(parse([], finish: true) != nil)
        // Found by the client fuzz target: llhttp read "051" as status 51, a code of no class.
        for status in ["051", "000", "099"] {
            guard case .failure(let error)? = parse([Array("HTTP/1.1 \(status) OK\r\nContent-Length: 0\r\n\r\n".utf8)]) else {
                Issue.record("status \(status) must fail")
                continue
            }
            #expect(error.message.contains("from 100 to 999"), "\(error.message)")
        }
        let short = "HTTP/1.1 404 Not Found\r\nContent-Length: 10\r\n\r\nabc"
        guard case .failure? = parse([Array(short.utf8)], finish: true) else {
            Issue.record("a body cut short by EOF must fail")
            return
        }
    }
}
