import Foundation
import JSONCoding
import Testing
import StatehouseTestClients

/// Strings of every length up to 40 bytes with characters that need escapes, multi-byte UTF-8 and DEL at every
/// position (the writer copies eight bytes at a time until one needs an escape), as values and as keys.
@Suite struct StringEscapeTests {
    @Test(arguments: [51, 52, 53] as [UInt64])
    func randomStringsEncodeLikeFoundation(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let special: [Character] = ["\"", "\\", "\n", "\u{0}", "\u{1F}", "\u{7F}", "/", "é", "😀", "\u{2028}", " "]
        for length in 0...40 {
            for _ in 0..<6 {
                var text = String(repeating: "a", count: length)
                if length > 0, Bool.random(using: &rng) {
                    var characters = Array(text)
                    for _ in 0..<Int.random(in: 1...3, using: &rng) {
                        characters[Int.random(in: 0..<length, using: &rng)] = special.randomElement(using: &rng)!
                    }
                    text = String(characters)
                }
                let value = [text: [text, "x" + text]]
                #expect(Oracle.text(try JSONBytesEncoder().encode(value)) == Oracle.text(try Oracle.foundationEncode(value)))
            }
        }
    }
}
