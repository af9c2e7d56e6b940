import JSON

/// The fields every WebSocket client message may carry (docs/protocol.md, *Client → server*), read before the
/// store-specific action decoding: `type`, `ref`, `store`, `id`, `path`, `format`, `epoch` (strings) and `since` (a
/// version).
struct ClientMessageHeader {
    var type: String?
    var ref: String?
    var store: String?
    var id: String?
    var path: String?
    var format: String?
    var epoch: String?
    var since: UInt64?

    /// What is wrong with a message's fields: one sentence naming the field and what it must be.
    struct Problem: Error {
        let message: String
    }

    /// The fields of `object` (null counts as absent).
    /// - Throws: ``Problem`` for the first field with the wrong JSON type.
    init(_ object: JSONObject) throws(Problem) {
        func string(_ key: String) throws(Problem) -> String? {
            switch object[key] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw Problem(message: "\"\(key)\" must be a string.")
            }
        }
        (type, ref, store, id) = (try string("type"), try string("ref"), try string("store"), try string("id"))
        (path, format, epoch) = (try string("path"), try string("format"), try string("epoch"))
        switch object["since"] {
        case nil, .null?: since = nil
        case .number(let number)?:
            guard let value = UInt64(number.description) ?? UInt64(exactly: number.doubleValue) else {
                throw Problem(message: Self.sinceProblem)
            }
            since = value
        default: throw Problem(message: Self.sinceProblem)
        }
    }

    /// A `subscribe` message's stream fields as the query a stream request takes (``StreamRequest/init(_:lastEventID:)``):
    /// `path`, `format`, `epoch`, `since`.
    var streamQuery: QueryParameters {
        var fields: [String: String] = [:]
        fields["path"] = path
        fields["format"] = format
        fields["epoch"] = epoch
        fields["since"] = since.map(String.init)
        return QueryParameters(fields)
    }

    private static let sinceProblem = "\"since\" must be a version: an integer from 0 to 2^64-1."
}
