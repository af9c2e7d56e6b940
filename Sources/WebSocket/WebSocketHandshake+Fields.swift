extension WebSocketHandshake {
    /// Values of every field called `name` (lowercase ASCII), compared case-insensitively (RFC 9110 §5.1).
    static func values(named name: String, in fields: [(name: String, value: String)]) -> [String] {
        fields.filter { equalsIgnoringASCIICase($0.name, name) }.map(\.value)
    }

    /// Whether any comma-separated element of `values` equals `token` ignoring ASCII case and surrounding
    /// whitespace (RFC 9110 §5.6.1 lists).
    static func containsToken(_ token: String, in values: [String]) -> Bool {
        values.contains { containsToken(token, in: $0) }
    }

    /// Whether a comma-separated element of one field value equals `token` ignoring ASCII case and surrounding
    /// whitespace (RFC 9110 §5.6.1 lists). Walks the value's bytes in place: no element list, no substring.
    static func containsToken(_ token: String, in value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
                var first = start
                var last = end
                while first < last, isSpace(bytes[first]) { first += 1 }
                while last > first, isSpace(bytes[last - 1]) { last -= 1 }
                if equalsIgnoringASCIICase(UnsafeBufferPointer(rebasing: bytes[first..<last]), token) { return true }
                start = end + 1
            }
            return false
        }
    }

    /// Space or horizontal tab (RFC 9110 §5.6.3 OWS).
    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// `text` without leading and trailing spaces and tabs (optional whitespace, RFC 9110 §5.6.3). Looks at UTF-8
    /// bytes, not characters: both ends of the result sit next to an ASCII byte, so they are scalar boundaries.
    static func trimmed(_ text: some StringProtocol) -> Substring {
        let sub = Substring(text)
        let utf8 = sub.utf8
        let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return sub[first..<utf8.index(after: last)]
    }

    /// ASCII case-insensitive equality; `lowercase` must already be lowercase.
    ///
    /// The UTF-8 lengths are compared first (constant time for native strings), so a name of another length costs
    /// one comparison; equal lengths are compared byte by byte in place (issue 18, callgrind: the byte-by-byte walk
    /// of every name through `elementsEqual` was about 20,000 instructions of each opening handshake).
    static func equalsIgnoringASCIICase(_ text: some StringProtocol, _ lowercase: String) -> Bool {
        guard text.utf8.count == lowercase.utf8.count else { return false }
        let compared = text.utf8.withContiguousStorageIfAvailable { text in
            lowercase.utf8.withContiguousStorageIfAvailable { lowercase in
                for offset in 0..<text.count where folded(text[offset]) != lowercase[offset] { return false }
                return true
            }
        }
        if let compared, let result = compared { return result }
        return text.utf8.elementsEqual(lowercase.utf8) { folded($0) == $1 }
    }

    /// ``equalsIgnoringASCIICase(_:_:)`` for bytes in place.
    static func equalsIgnoringASCIICase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: String) -> Bool {
        guard bytes.count == lowercase.utf8.count else { return false }
        let compared = lowercase.utf8.withContiguousStorageIfAvailable { lowercase in
            for offset in 0..<bytes.count where folded(bytes[offset]) != lowercase[offset] { return false }
            return true
        }
        return compared ?? bytes.elementsEqual(lowercase.utf8) { folded($0) == $1 }
    }

    /// `byte` with `A`–`Z` folded to `a`–`z`.
    @inline(__always)
    private static func folded(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}

/// The fields of an opening handshake that §4.2.1 checks, gathered in one pass over the request's fields (each
/// name is looked at once, by length first, instead of once per field the check needs).
struct HandshakeFields {
    /// How many `Upgrade` fields there are, and whether one lists the token `websocket`.
    var upgradeCount = 0
    var upgradeListsWebSocket = false
    /// Whether a `Connection` field lists the token `upgrade`.
    var connectionListsUpgrade = false
    /// How many `Sec-WebSocket-Version` fields there are, and the first one's value (as sent).
    var versionCount = 0
    var version = ""
    /// How many `Sec-WebSocket-Key` fields there are, and the first one's value (as sent).
    var keyCount = 0
    var key = ""

    init(_ fields: some Sequence<(name: String, value: String)>) {
        for field in fields {
            // Every name the handshake needs has its own length: the length picks the one name to compare with.
            switch field.name.utf8.count {
            case 7 where WebSocketHandshake.equalsIgnoringASCIICase(field.name, "upgrade"):
                upgradeCount += 1
                if !upgradeListsWebSocket {
                    upgradeListsWebSocket = WebSocketHandshake.containsToken("websocket", in: field.value)
                }
            case 10 where WebSocketHandshake.equalsIgnoringASCIICase(field.name, "connection"):
                if !connectionListsUpgrade {
                    connectionListsUpgrade = WebSocketHandshake.containsToken("upgrade", in: field.value)
                }
            case 17 where WebSocketHandshake.equalsIgnoringASCIICase(field.name, "sec-websocket-key"):
                if keyCount == 0 { key = field.value }
                keyCount += 1
            case 21 where WebSocketHandshake.equalsIgnoringASCIICase(field.name, "sec-websocket-version"):
                if versionCount == 0 { version = field.value }
                versionCount += 1
            default:
                break
            }
        }
    }
}
