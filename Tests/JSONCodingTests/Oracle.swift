import Foundation
import JSONCoding
import JSON

/// Foundation's coders configured as `JSONBytesEncoder` promises to match.
enum Oracle {
    static func foundationEncode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The result of a decode: the value, or the error's kind and coding path (as strings).
    enum Outcome<T: Equatable>: Equatable, CustomStringConvertible {
        case value(T)
        case failure(kind: String, path: [String]?)

        var description: String {
            switch self {
            case .value(let value): return "value(\(value))"
            case .failure(let kind, let path): return "\(kind) at \(path.map { $0.joined(separator: ".") } ?? "-")"
            }
        }
    }

    /// Runs `body` and classifies its result. dataCorrupted paths are not compared (Foundation reports number
    /// conversion failures with an empty path), so they are recorded as nil.
    static func outcome<T: Equatable>(_ body: () throws -> T) -> Outcome<T> {
        do {
            return .value(try body())
        } catch let error as DecodingError {
            switch error {
            case .typeMismatch(_, let context): return .failure(kind: "typeMismatch", path: names(context.codingPath))
            case .valueNotFound(_, let context):
                return .failure(kind: "valueNotFound", path: names(context.codingPath))
            case .keyNotFound(let key, let context):
                return .failure(kind: "keyNotFound", path: names(context.codingPath + [key]))
            case .dataCorrupted: return .failure(kind: "dataCorrupted", path: nil)
            @unknown default: return .failure(kind: "unknown", path: nil)
            }
        } catch {
            return .failure(kind: "other: \(error)", path: nil)
        }
    }

    private static func names(_ path: [any CodingKey]) -> [String] {
        path.map(\.stringValue)
    }

    static func ours<T: Decodable & Equatable>(_ type: T.Type, _ text: String) -> Outcome<T> {
        outcome { try JSONValueDecoder().decode(type, from: Array(text.utf8)) }
    }

    static func foundation<T: Decodable & Equatable>(_ type: T.Type, _ text: String) -> Outcome<T> {
        outcome { try JSONDecoder().decode(type, from: Data(text.utf8)) }
    }
}
