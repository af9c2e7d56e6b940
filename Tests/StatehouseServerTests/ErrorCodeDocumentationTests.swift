import Foundation
import StatehouseServer
import Testing

/// Every error code the server can send is listed in docs/protocol.md (*Errors*), and every code listed there exists.
@Suite struct ErrorCodeDocumentationTests {
    /// The codes in the first backticked run of the `code` column of the error table.
    static func documentedCodes() throws -> Set<String> {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "### Errors").dropFirst().first)
        var codes: Set<String> = []
        for line in section.components(separatedBy: "\n") {
            if line.hasPrefix("## ") { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            guard line.hasPrefix("|"), cells.count > 2, Int(cells[1].trimmingCharacters(in: .whitespaces)) != nil else { continue }
            for (index, part) in cells[2].split(separator: "`", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
                codes.insert(String(part))
            }
        }
        return codes
    }

    /// `code: "…"` literals anywhere in the sources the server is built from (the HTTP1 and WebSocket modules build
    /// their refusals that way; the server itself uses `APIError.Code`).
    static func literalCodes() throws -> Set<String> {
        var codes: Set<String> = []
        for module in ["HTTP1", "WebSocket", "StatehouseServer"] {
            let directory = packageRoot.appendingPathComponent("Sources/\(module)")
            let files = try #require(FileManager.default.enumerator(atPath: directory.path)).compactMap { $0 as? String }
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                for piece in text.components(separatedBy: "code: \"").dropFirst() {
                    codes.insert(String(piece.prefix { $0 != "\"" }))
                }
            }
        }
        return codes
    }

    @Test func everyCodeIsDocumentedAndEveryDocumentedCodeExists() throws {
        let documented = try Self.documentedCodes()
        let sent = Set(APIError.allCodes)
        #expect(documented.count > 30, "the error table was found")
        #expect(sent.subtracting(documented).sorted() == [], "codes the server sends that docs/protocol.md does not list")
        #expect(documented.subtracting(sent).sorted() == [], "codes docs/protocol.md lists that the server never sends")
    }

    @Test func everyLiteralCodeInTheSourcesIsAKnownCode() throws {
        let literals = try Self.literalCodes()
        #expect(literals.contains("bad_request"), "the sources were found")
        #expect(literals.subtracting(APIError.allCodes).sorted() == [])
    }

    @Test func codesAreUniqueAndSnakeCase() {
        #expect(Set(APIError.allCodes).count == APIError.allCodes.count)
        for code in APIError.allCodes {
            #expect(code.allSatisfy { $0.isLowercase || $0 == "_" }, "\(code)")
        }
    }
}
