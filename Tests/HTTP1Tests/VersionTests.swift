import HTTP1
import Testing

/// RFC 9112 §2.3: only HTTP/1.x is served; HTTP/0.9 (no version in the request line) is refused with 505 like 2.0.
struct VersionTests {
    @Test(arguments: ["GET /\r\n\r\n", "GET / HTTP/2.0\r\nHost: x\r\n\r\n"])
    func otherVersionsAre505(_ input: String) {
        let parser = HTTPRequestParser(limits: HTTPParserLimits(maxHeaderBytes: 1024, maxBodyBytes: 1024))
        let events = Array(input.utf8).withUnsafeBytes { parser.feed($0) }
        guard case .failure(let failure)? = events.first else {
            Issue.record("expected a failure, got \(events)")
            return
        }
        #expect(failure.status == 505)
    }
}
