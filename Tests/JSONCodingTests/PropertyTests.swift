import Foundation
import JSONCoding
import JSON
import Testing
import StatehouseTestClients

/// Seeded random values compared with Foundation's coders.
@Suite struct PropertyTests {
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomTreesEncodeLikeFoundationAndRoundTrip(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<150 {
            let tree = Random.tree(&rng, depth: 4)
            let ours = try JSONBytesEncoder().encode(tree)
            let theirs = try Oracle.foundationEncode(tree)
            #expect(Oracle.text(ours) == Oracle.text(theirs))
            #expect(try JSONValueDecoder().decode(Tree.self, from: ours) == tree)
            #expect(try JSONDecoder().decode(Tree.self, from: Data(ours)) == tree)
        }
    }

    @Test(arguments: [11, 12, 13] as [UInt64])
    func randomJSONDecodesLikeFoundation(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var successes = 0
        for _ in 0..<300 {
            let text = Oracle.text(Random.json(&rng, depth: 3).serialized())
            successes += agree(Shape.self, text) + agree(Action.self, text) + agree([Action].self, text)
            successes += agree(Int.self, text) + agree(Double.self, text) + agree([Int?].self, text)
            successes += agree(Point.self, text) + agree([[Int8]].self, text) + agree(Bool?.self, text)
        }
        #expect(successes > 100, "the generator should reach successful decodes too")
    }

    /// Expects both decoders to agree (value, or error kind and path); returns 1 for a successful decode.
    private func agree<T: Decodable & Equatable>(_ type: T.Type, _ text: String) -> Int {
        let ours = Oracle.ours(type, text)
        #expect(ours == Oracle.foundation(type, text), "\(T.self) from \(text)")
        if case .value = ours { return 1 }
        return 0
    }
}
