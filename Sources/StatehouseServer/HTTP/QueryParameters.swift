import Foundation

/// The query of a request-target as name → value (RFC 3986 §3.4, `application/x-www-form-urlencoded` style:
/// `+` is a space, `%XX` is decoded). A repeated name keeps its last value.
struct QueryParameters {
    private var values: [String: String] = [:]
    /// `access_token`, kept apart: it is a credential, never a parameter of the endpoint (and never logged).
    private(set) var accessToken: String?

    init(_ query: String?) {
        guard let query, !query.isEmpty else { return }
        // Split on the UTF-8 bytes `&` and `=`: as Characters, a combining mark after one would hide it.
        for pair in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else {
                values[Self.decode(pair)] = ""
                continue
            }
            values[Self.decode(pair[..<equals])] = Self.decode(pair[pair.index(after: equals)...])
        }
        accessToken = values.removeValue(forKey: "access_token")
    }

    /// Parameters given as values already (e.g. the fields of a WebSocket `subscribe` message).
    init(_ values: [String: String]) { self.values = values }

    subscript(name: String) -> String? { values[name] }

    /// No parameter at all (`access_token` aside).
    var isEmpty: Bool { values.isEmpty }

    /// Names present that are not in `known`, sorted.
    func unknown(_ known: Set<String>) -> [String] { values.keys.filter { !known.contains($0) }.sorted() }

    /// `+` as a space, then `%XX` decoded; text whose escapes do not decode (a bad `%`, or bytes that are not UTF-8)
    /// is kept with only `+` replaced.
    private static func decode(_ text: Substring.UTF8View) -> String {
        var bytes = Array(text)
        for index in bytes.indices where bytes[index] == UInt8(ascii: "+") { bytes[index] = UInt8(ascii: " ") }
        let spaced = String(decoding: bytes, as: UTF8.self)
        guard bytes.contains(UInt8(ascii: "%")) else { return spaced }
        return spaced.removingPercentEncoding ?? spaced
    }
}
