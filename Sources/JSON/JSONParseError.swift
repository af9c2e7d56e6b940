/// Why JSON text was rejected, and where (RFC 8259 grammar).
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: String, Sendable, Hashable {
        /// The input ended inside a value, or was empty / only whitespace.
        case unexpectedEnd = "unexpected end of input"
        /// A byte that cannot start or continue the value here (e.g. `[1 2]`, `{1:2}`, a bare word).
        case unexpectedByte = "unexpected byte"
        /// Number text off the §6 grammar: leading zeros (`01`), `+1`, `.5`, `1.`, `1e`, `-`.
        case invalidNumber = "invalid number"
        /// A backslash escape other than `\" \\ \/ \b \f \n \r \t \uXXXX` (§7).
        case invalidEscape = "invalid escape"
        /// A `\u` surrogate escape without its partner (`\uD800` alone, or a lone low surrogate). Always an error:
        /// such text is not Unicode and is never replaced with U+FFFD.
        case loneSurrogate = "lone surrogate in \\u escape"
        /// An unescaped control character (U+0000–U+001F) inside a string (§7).
        case controlCharacterInString = "control character in string"
        /// String bytes that are not well-formed UTF-8 (§8.1).
        case invalidUTF8 = "invalid UTF-8"
        /// More nested arrays/objects than `maxDepth`.
        case tooDeep = "nesting too deep"
        /// Non-whitespace bytes after the top-level value.
        case trailingData = "trailing data after value"
        /// An object member whose name an earlier member of the same object has (§4: names "SHOULD be unique");
        /// only when parsing with `rejectingDuplicateKeys: true`.
        case duplicateKey = "duplicate key"
    }

    /// Byte offset into the input where the problem was found (0-based).
    public var offset: Int
    /// The kind of problem.
    public var reason: Reason
    /// For `.duplicateKey`: the repeated member (RFC 6901), e.g. `/stores/0/name`; nil for the other reasons.
    public var pointer: JSONPointer?

    /// An error at byte `offset` for `reason`, at `pointer` for a duplicate key.
    public init(offset: Int, reason: Reason, pointer: JSONPointer? = nil) {
        self.offset = offset
        self.reason = reason
        self.pointer = pointer
    }

    /// E.g. `invalid number at byte 7`, `duplicate key at byte 40 (/listen/port)`.
    public var description: String {
        let place = pointer.map { " (\($0))" } ?? ""
        return "\(reason.rawValue) at byte \(offset)\(place)"
    }
}
