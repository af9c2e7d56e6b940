import StatehouseClient
import Testing

/// `ServerEndpoint(parsing:)`: the URLs a client is given, and clear errors for the others.
@Suite struct ServerEndpointTests {
    @Test func acceptedForms() throws {
        #expect(try ServerEndpoint(parsing: "http://127.0.0.1:8080") == ServerEndpoint(host: "127.0.0.1", port: 8080))
        #expect(try ServerEndpoint(parsing: "ws://localhost:9000/") == ServerEndpoint(host: "localhost", port: 9000))
        #expect(try ServerEndpoint(parsing: "HTTP://example.internal") == ServerEndpoint(host: "example.internal", port: 80))
        #expect(try ServerEndpoint(parsing: "http://[::1]:8080/state/house/")
            == ServerEndpoint(host: "::1", port: 8080, basePath: "/state/house"))
        #expect(ServerEndpoint(host: "::1", port: 8080, basePath: "/p").description == "http://[::1]:8080/p")
        #expect(ServerEndpoint(host: "h", port: 1).authority == "h:1")
    }

    @Test func refusedForms() {
        let cases: [(String, String)] = [
            ("https://h:443", "TLS (https://) is not supported yet"),
            ("wss://h", "TLS (wss://) is not supported yet"),
            ("ftp://h", "scheme \"ftp\""),
            ("127.0.0.1:8080", "no scheme"),
            ("http://:8080", "no host"),
            ("http://h:0", "1 to 65535"),
            ("http://h:99999", "1 to 65535"),
            ("http://h:+80", "1 to 65535"),
            ("http://h:x", "1 to 65535"),
            ("http://u:p@h", "user information"),
            ("http://h/ws?x=1", "query or fragment"),
            ("http://[::1", "closing bracket"),
            ("http://[h]:1", "IPv6"),
            ("http://h h", "not a host name"),
            // Found by the client fuzz target: brackets took any text holding a colon as an IPv6 address.
            ("http://[:a b]", "IPv6"),
            ("http://[::1%25eth0]:80", "IPv6"),
        ]
        for (url, words) in cases {
            do {
                let endpoint = try ServerEndpoint(parsing: url)
                Issue.record("\(url) parsed as \(endpoint)")
            } catch {
                #expect(error.message.contains(words), "\(url): \(error.message)")
            }
        }
    }
}
