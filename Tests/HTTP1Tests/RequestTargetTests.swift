@testable import HTTP1
import Testing

/// How a request-target splits into path and query (RFC 9112 §3.2), on both ways a target is read: from its bytes
/// (origin-form) and from its text (every form).
@Suite struct RequestTargetTests {
    /// Found by the wire fuzz target: a combining mark (U+065A) after `?`, `/` or the scheme made one grapheme
    /// cluster with it, and the text-based split stepped over the mark (the query lost its first character) or did
    /// not see the `?` or `/` at all.
    @Test(arguments: [
        ("http://h/p?\u{065A}x", "/p", "\u{065A}x"),
        ("http://h?\u{065A}x", "/", "\u{065A}x"),
        ("HTTP://h/\u{065A}p?q", "/\u{065A}p", "q"),
        ("https://\u{0301}h/p", "/p", nil),
        ("/p?\u{0301}", "/p", "\u{0301}"),
    ] as [(String, String, String?)])
    func combiningMarksDoNotJoinTheDelimiters(target: String, path: String, query: String?) {
        let parsed = RequestTarget(target)
        #expect(parsed.path == path)
        #expect(parsed.query == query)
        if target.hasPrefix("/") {
            let bytes = Array(target.utf8)
            let fromBytes = bytes.withUnsafeBufferPointer { RequestTarget(bytes: $0) }
            #expect(fromBytes.path == parsed.path && fromBytes.query == parsed.query)
        }
    }

    @Test func schemesAreCaseInsensitive() {
        #expect(RequestTarget("HtTpS://h.test/a?b").path == "/a")
        #expect(RequestTarget("httpx://h.test/a").path == "httpx://h.test/a")
        #expect(RequestTarget("http:/").path == "http:/")
    }
}
