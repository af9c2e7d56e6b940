#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSON

/// Foundation types that `JSONDecoder` decodes with its default strategies rather than their own `Codable`:
/// `Data` from a base64 string, `URL` from its absolute string, `Decimal` from a number's text. `Date` needs no
/// special case: the default `.deferredToDate` runs `Date.init(from:)` (a `Double` of seconds since 2001-01-01).
/// Foundation is only touched when `T` is one of these types.
extension ValueDecoder {
    func decodeFoundationType<T>(
        _ kind: DirectKind, _ value: JSONValue, as type: T.Type, at position: PathPosition,
        _ key: @autoclosure () -> PathKey?
    ) throws -> T {
        switch kind {
        case .data:
            let text: String
            switch value {
            case .string(let string): text = string
            case .null: throw valueNotFound(Data.self, at: position, key())
            default: throw typeMismatch(String.self, found: value, at: position, key())
            }
            guard let data = Data(base64Encoded: text) else {
                throw dataCorrupted("Encountered Data is not valid Base64.", at: position, key())
            }
            return data as! T
        case .url:
            if case .null = value { throw valueNotFound(URL.self, at: position, key()) }
            guard let url = URL(string: try string(value, at: position, key())) else {
                throw dataCorrupted("Invalid URL string.", at: position, key())
            }
            return url as! T
        default:
            switch value {
            case .number(let number):
                guard let decimal = Decimal(string: number.text) else {
                    throw dataCorrupted(
                        "Parsed JSON number <\(number.text)> does not fit in Decimal.", at: position, key())
                }
                return decimal as! T
            case .null: throw valueNotFound(Decimal.self, at: position, key())
            default: throw typeMismatch(Decimal.self, found: value, at: position, key())
            }
        }
    }
}

extension DirectKind {
    /// `.data`, `.url` or `.decimal` for those Foundation types, else nil.
    static func foundationKind(of type: Any.Type) -> DirectKind? {
        if type == Data.self { return .data }
        if type == URL.self { return .url }
        if type == Decimal.self { return .decimal }
        return nil
    }
}
