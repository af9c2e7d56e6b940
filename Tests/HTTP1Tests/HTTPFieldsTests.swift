import HTTP1
import Testing

@Suite struct HTTPFieldsTests {
    let fields = HTTPFields([
        HTTPField(name: "Content-Type", value: "text/plain"),
        HTTPField(name: "Connection", value: "keep-alive, Upgrade"),
        HTTPField(name: "Accept", value: "a/b"),
        HTTPField(name: "accept", value: "c/d"),
        HTTPField(name: "X-List", value: " one ,\ttwo\t,, three "),
    ])

    @Test func subscriptIsCaseInsensitiveAndReturnsFirst() {
        #expect(fields["content-type"] == "text/plain")
        #expect(fields["CONTENT-TYPE"] == "text/plain")
        #expect(fields["ACCEPT"] == "a/b")
        #expect(fields["Content-Typ"] == nil)
        #expect(fields["Missing"] == nil)
    }

    @Test func valuesReturnsAllInOrder() {
        #expect(fields.values("Accept") == ["a/b", "c/d"])
        #expect(fields.values("missing").isEmpty)
        #expect(fields.count(of: "accept") == 2 && fields.count(of: "missing") == 0)
    }

    @Test func countAndIterationKeepArrivalOrder() {
        #expect(fields.count == 5)
        #expect(fields.map(\.name) == ["Content-Type", "Connection", "Accept", "accept", "X-List"])
        #expect(HTTPFields().count == 0)
    }

    @Test func containsTokenReadsCommaSeparatedLists() {
        #expect(fields.containsToken("upgrade", in: "connection"))
        #expect(fields.containsToken("KEEP-ALIVE", in: "Connection"))
        #expect(!fields.containsToken("close", in: "Connection"))
        #expect(fields.containsToken("two", in: "x-list"))
        #expect(fields.containsToken(" three ", in: "X-List"))
        #expect(!fields.containsToken("", in: "X-List"))
        #expect(!fields.containsToken("keep", in: "Connection"))
        #expect(!fields.containsToken("upgrade", in: "Missing"))
    }

    @Test func containsTokenSearchesEveryLineOfTheName() {
        let repeated = HTTPFields([
            HTTPField(name: "Connection", value: "keep-alive"), HTTPField(name: "connection", value: "upgrade"),
        ])
        #expect(repeated.containsToken("Upgrade", in: "Connection"))
    }

    @Test func nonASCIILettersAreNotFolded() {
        let odd = HTTPFields([HTTPField(name: "X-Ä", value: "É")])
        #expect(odd["x-Ä"] == "É")
        #expect(odd["x-ä"] == nil)
    }
}
