import JSON
import StatehouseTestClients
import Testing

/// RFC 6901 escaping round-trips: random reference tokens (drawn from the characters the escapes are about, `~` and
/// `/`, digits, `~0`/`~1` look-alikes and non-ASCII text) printed as a pointer parse back to the same tokens, and
/// the pointer reaches the value a document holds under those keys.
@Suite struct PointerPropertyTests {
    private static let pieces = ["~", "/", "0", "1", "~0", "~1", "a", "", " ", "é", "😀", "%2F", "\\", "\""]

    @Test(arguments: 0..<20)
    func printedPointersParseBackAndResolve(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<100 {
            let depth = Int.random(in: 0..<6, using: &generator)
            let tokens = (0..<depth).map { _ in
                (0..<Int.random(in: 0..<4, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }
                    .joined()
            }
            let pointer = JSONPointer(tokens: tokens)
            let text = pointer.description
            #expect(try JSONPointer(text).tokens == tokens, "\(text)")
            #expect(text.isEmpty == tokens.isEmpty && (text.isEmpty || text.hasPrefix("/")))
            // A document with an object per token, "leaf" at the end: the pointer finds it.
            var document: JSONValue = "leaf"
            for token in tokens.reversed() {
                var object = JSONObject()
                object[token] = document
                document = .object(object)
            }
            #expect(document[pointer: pointer] == "leaf", "\(text)")
        }
    }
}
