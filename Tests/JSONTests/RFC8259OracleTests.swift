import Foundation
@testable import JSON
import StatehouseTestClients
import Testing

/// The parser against an independent RFC 8259 parser, Python's `json` pinned to the RFC (Tests/Python/json_oracle.py:
/// strict UTF-8, no BOM, no NaN/Infinity, exact numbers): on random texts (`RandomJSONText`, mostly valid, with the
/// JSON test suites' kinds of edge cases) both accept or both refuse, and an accepted text has the same value (the
/// oracle compares canonical forms: keys sorted, numbers normalized, duplicate keys keeping the last value, which is
/// what both do). The one intended difference: a `\u` escape of a lone surrogate, which Python accepts and the
/// project refuses (`.loneSurrogate`, docs/conformance.md).
@Suite struct RFC8259OracleTests {
    @Test func randomTextsAgreeWithPythonsJSON() throws {
        var texts: [[UInt8]] = []
        for seed in 0..<3_000 {
            var random = RandomJSONText(seed: UInt64(10_000 + seed))
            texts.append(random.document())
        }
        // Texts the project parsed, written again: the oracle reads their values too.
        var written: [Int: [UInt8]] = [:]
        for (index, text) in texts.enumerated() {
            if let value = try? JSONValue(parsing: text) { written[index] = value.serialized() }
        }
        let order = written.keys.sorted()
        let all = texts + order.map { written[$0]! }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("json-oracle-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        let lines = all.map { bytes in bytes.map { String(format: "%02x", $0) }.joined() }.joined(separator: "\n")
        try Data((lines + "\n").utf8).write(to: file)
        let result = try TestPython.run(script: "json_oracle.py", args: [file.path], timeout: .seconds(120))
        try #require(result.status == 0, "json_oracle.py failed: \(result.stderr)")
        try #require(result.stdout.count == all.count, "the oracle judged \(result.stdout.count) of \(all.count) texts")
        let ours = Dictionary(uniqueKeysWithValues: zip(order, result.stdout[texts.count...]))
        var disagreements: [String] = []
        for (index, text) in texts.enumerated() {
            let oracle = result.stdout[index]
            let shown = String(decoding: text.prefix(120), as: UTF8.self).debugDescription
            switch (oracle, written[index] != nil) {
            case ("reject", false), ("lone", false): continue
            case ("reject", true): disagreements.append("we accept, RFC 8259 refuses: \(shown)")
            case ("lone", true): disagreements.append("we accept a lone surrogate: \(shown)")
            case (_, false): disagreements.append("we refuse, RFC 8259 accepts: \(shown)")
            case (_, true):
                if ours[index] != oracle { disagreements.append("values differ: \(shown) → \(ours[index] ?? "")") }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, e.g. \(disagreements.prefix(5))")
        let accepted = written.count
        #expect(accepted > 300 && accepted < texts.count - 300, "a corpus of both kinds: \(accepted) of \(texts.count) accepted")
    }
}
