extension WebSocketHandshake {
    /// Values of every field called `name` (lowercase ASCII), compared case-insensitively (RFC 9110 §5.1).
    static func values(named name: String, in fields: [(name: String, value: String)]) -> [String] {
        fields.filter { equalsIgnoringASCIICase($0.name, name) }.map(\.value)
    }

    /// Whether any comma-separated element of `values` equals `token` ignoring ASCII case and surrounding
    /// whitespace (RFC 9110 §5.6.1 lists).
    static func containsToken(_ token: String, in values: [String]) -> Bool {
        values.contains { value in
            value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true).contains { element in
                equalsIgnoringASCIICase(trimmed(Substring(element)), token)
            }
        }
    }

    /// `text` without leading and trailing spaces and tabs (optional whitespace, RFC 9110 §5.6.3).
    static func trimmed(_ text: some StringProtocol) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let sub = Substring(text)
        guard let first = sub.firstIndex(where: { !isSpace($0) }),
            let last = sub.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return sub[first...last]
    }

    /// ASCII case-insensitive equality; `lowercase` must already be lowercase.
    static func equalsIgnoringASCIICase(_ text: some StringProtocol, _ lowercase: String) -> Bool {
        text.utf8.elementsEqual(lowercase.utf8) { byte, expected in
            let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            return folded == expected
        }
    }
}
