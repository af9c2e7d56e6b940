import Foundation
import JSONCoding
import JSON
import Testing
import StatehouseTestClients

/// The decoder's fast paths (short plain integers, scalar arrays converted element by element, the root frame)
/// against Foundation's `JSONDecoder`, with many random inputs: same values, or the same error kind and path.
@Suite struct DecoderFastPathTests {
    @Test(arguments: [31, 32, 33] as [UInt64])
    func randomNumbersConvertLikeFoundation(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<400 {
            let text = Self.number(&rng)
            expectAgreement(Int.self, text)
            expectAgreement(Int8.self, text)
            expectAgreement(UInt8.self, text)
            expectAgreement(Int16.self, text)
            expectAgreement(Int32.self, text)
            expectAgreement(UInt32.self, text)
            expectAgreement(Int64.self, text)
            expectAgreement(UInt64.self, text)
            expectAgreement(Double.self, text)
            expectAgreement(Float.self, text)
        }
    }

    @Test(arguments: [41, 42, 43] as [UInt64])
    func randomScalarArraysDecodeLikeFoundation(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let elements = ["1", "-7", "2.5", "1e2", "300", "\"x\"", "true", "null", "[]", "{}", "12345678901234567890"]
        for _ in 0..<300 {
            let count = Int.random(in: 0...4, using: &rng)
            let array = "[" + (0..<count).map { _ in elements.randomElement(using: &rng)! }.joined(separator: ",") + "]"
            for text in [array, "{\"a\":{\"b\":\(array)}}"] {
                expectAgreement([Int].self, text)
                expectAgreement([String].self, text)
                expectAgreement([Double].self, text)
                expectAgreement([Bool].self, text)
                expectAgreement([String: [String: [Int]]].self, text)
                expectAgreement([String: [String: [Double]]].self, text)
            }
        }
    }

    private func expectAgreement<T: Decodable & Equatable>(_ type: T.Type, _ text: String) {
        let ours = Oracle.ours(type, text)
        #expect(ours == Oracle.foundation(type, text), "\(T.self) from \(text)")
    }

    /// Integer texts of 1–24 digits (around every width's limits), with a sign, a fraction or an exponent.
    static func number<G: RandomNumberGenerator>(_ rng: inout G) -> String {
        let digits: String
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: digits = String(UInt64.random(in: 0...UInt64.max, using: &rng))
        case 1: digits = String(Int.random(in: 0...70_000, using: &rng))
        case 2:
            let limits: [UInt64] = [127, 128, 255, 256, 32767, 65535, 2_147_483_647, 4_294_967_295, 1 << 53, 1 << 63]
            digits = String(limits.randomElement(using: &rng)! &+ UInt64.random(in: 0...2, using: &rng) &- 1)
        default:
            let first = String(Int.random(in: 1...9, using: &rng))
            let count = Int.random(in: 0...23, using: &rng)
            digits = first + (0..<count).map { _ in String(Int.random(in: 0...9, using: &rng)) }.joined()
        }
        let sign = Bool.random(using: &rng) ? "-" : ""
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return sign + digits + ".0"
        case 1: return sign + digits + "e1"
        default: return sign + digits
        }
    }
}
