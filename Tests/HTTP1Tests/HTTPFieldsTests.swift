import HTTP1
import Testing
import StatehouseTestClients

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

@Suite struct HTTPFieldsLookupDifferentialTests {
    /// ASCII-only case folding, the reference for every lookup (`String.lowercased()` would also fold non-ASCII).
    static func folded(_ text: String) -> [UInt8] {
        text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }

    @Test func lookupsMatchAnASCIIFoldingReference() {
        var random = SeededGenerator(seed: 0xF1E1D)
        // Letters in both cases, digits, `-`, and non-ASCII look-alikes (KELVIN SIGN, dotless i) that must not fold.
        let alphabet: [String] = ["a", "A", "k", "K", "\u{212A}", "i", "I", "\u{131}", "-", "1", "\u{E9}", "\u{C9}"]
        func name() -> String { (0..<Int(random.next() % 5)).map { _ in alphabet[Int(random.next() % 12)] }.joined() }
        for round in 0..<2000 {
            let fields = (0..<Int(random.next() % 6)).map { index in HTTPField(name: name(), value: "v\(index)") }
            let list = HTTPFields(fields)
            let wanted = random.next() % 2 == 0 || fields.isEmpty ? name() : fields[Int(random.next() % UInt64(fields.count))].name
            let variant = wanted.map { random.next() % 2 == 0 ? $0.lowercased() : $0.uppercased() }.joined()
            for probe in [wanted, variant] {
                let matching = fields.filter { Self.folded($0.name) == Self.folded(probe) }
                #expect(list[probe] == matching.first?.value, "round \(round): \(probe)")
                #expect(list.values(probe) == matching.map(\.value), "round \(round): \(probe)")
                #expect(list.count(of: probe) == matching.count, "round \(round): \(probe)")
            }
        }
    }

    /// The name mask skips only names that are surely absent: names sharing a length (one bit) are
    /// still told apart, any case of a present name is found, and fields appended later are seen.
    @Test func theNameMaskNeverHidesAPresentField() {
        let list = HTTPFields([
            HTTPField(name: "Content-Type", value: "a"), HTTPField(name: "", value: "empty"),
            HTTPField(name: "\u{e9}t\u{e9}", value: "accented"),
        ])
        #expect(list["cONTENT-tYPE"] == "a")
        #expect(list["Content-Tipe"] == nil)  // same length: compared, and different
        #expect(list["X-Request-Id"] == nil)  // same length as Content-Type
        #expect(list[""] == "empty")
        #expect(list["\u{e9}t\u{e9}"] == "accented")
        #expect(list.values("content-type") == ["a"] && list.containsToken("a", in: "CONTENT-TYPE"))
        #expect(!list.containsToken("a", in: "Prefer") && list.count(of: "X-Request-Id") == 0)
    }
}
