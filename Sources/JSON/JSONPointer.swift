/// A JSON Pointer (RFC 6901): a path of reference tokens into a JSON value.
///
/// The text form is `""` (the whole document) or `/token/token…`, where `~` is written `~0` and `/` is written `~1`
/// (§3). `tokens` holds the unescaped tokens; array elements are addressed by decimal index tokens (`"0"`, `"12"`,
/// no leading zeros) or `"-"` (the position after the last element, used by JSON Patch `add`) (§4).
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The unescaped reference tokens, outermost first; empty for the whole document.
    public var tokens: [String]

    /// Parses the text form (RFC 6901 §3), unescaping `~1` → `/` then `~0` → `~`.
    /// - Throws: `JSONPointerError.missingLeadingSlash` for non-empty text not starting with `/`;
    ///   `.invalidEscape` for a `~` not followed by `0` or `1`.
    public init(_ text: String) throws(JSONPointerError) {
        tokens = []
        guard !text.isEmpty else { return }
        var utf8 = text.utf8[...]
        guard utf8.first == UInt8(ascii: "/") else { throw .missingLeadingSlash(text) }
        utf8 = utf8.dropFirst()
        var token: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "/"):
                tokens.append(String(decoding: token, as: UTF8.self))
                token.removeAll(keepingCapacity: true)
            case UInt8(ascii: "~"):
                switch iterator.next() {
                case UInt8(ascii: "0"): token.append(UInt8(ascii: "~"))
                case UInt8(ascii: "1"): token.append(UInt8(ascii: "/"))
                default: throw .invalidEscape(text)
                }
            default:
                token.append(byte)
            }
        }
        tokens.append(String(decoding: token, as: UTF8.self))
    }

    /// A pointer from unescaped tokens (any strings; escaping happens in `description`).
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// The whole document (`""`).
    public static let root = JSONPointer(tokens: [])

    /// The escaped text form, e.g. `/a~1b/0` for tokens `["a/b", "0"]`; `""` for the root.
    public var description: String {
        var text = ""
        for token in tokens {
            text.append("/")
            if token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
                for character in token.unicodeScalars {
                    switch character {
                    case "~": text.append("~0")
                    case "/": text.append("~1")
                    default: text.unicodeScalars.append(character)
                    }
                }
            } else {
                text.append(token)
            }
        }
        return text
    }

    /// The pointer with `token` added at the end.
    public func appending(_ token: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [token])
    }

    /// Whether `self` is `other` or lies inside it (`other.tokens` is a prefix of `tokens`).
    public func hasPrefix(_ other: JSONPointer) -> Bool {
        tokens.count >= other.tokens.count && tokens[..<other.tokens.count].elementsEqual(other.tokens)
    }

    /// The array index a token denotes (RFC 6901 §4): `"0"` or `[1-9][0-9]*` within `Int` range, else nil.
    /// `"-"` is not an index (see JSON Patch `add`).
    static func arrayIndex(_ token: String) -> Int? {
        let utf8 = token.utf8
        guard let first = utf8.first, JSONNumberScanner.isDigit(first) else { return nil }
        guard first != UInt8(ascii: "0") || utf8.count == 1 else { return nil }
        guard utf8.allSatisfy(JSONNumberScanner.isDigit) else { return nil }
        return Int(token)
    }
}

/// Why JSON Pointer text was rejected (RFC 6901 §3).
public enum JSONPointerError: Error, Sendable, Hashable {
    /// Non-empty pointer text must start with `/`; carries the text.
    case missingLeadingSlash(String)
    /// `~` must be followed by `0` or `1`; carries the text.
    case invalidEscape(String)
}
