import Foundation

/// The query of a request-target as name → value (RFC 3986 §3.4, `application/x-www-form-urlencoded` style:
/// `+` is a space, `%XX` is decoded). A repeated name keeps its last value.
struct QueryParameters {
    private var values: [String: String] = [:]
    /// `access_token`, kept apart: it is a credential, never a parameter of the endpoint (and never logged).
    private(set) var accessToken: String?

    init(_ query: String?) {
        guard let query, !query.isEmpty else { return }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            values[name] = parts.count > 1 ? Self.decode(parts[1]) : ""
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

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
