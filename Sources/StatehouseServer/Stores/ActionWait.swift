/// What the answer to an action waits for: nothing more than its reduce (`reduced`, the default), or the action and
/// every effect it started, transitively (`settled`, with a timeout of 0…600000 ms, default 10000).
///
/// Read from `POST /stores/{name}/actions?wait=settled&timeout_ms=N` (``init(_:)``) or from the `"wait":"settled"`
/// and `"timeout_ms":N` fields of a WebSocket `action` message (``init(message:)``, +Message).
enum ActionWait: Equatable {
    case reduced
    case settled(Duration)

    static let defaultTimeoutMs = 10_000
    static let maxTimeoutMs = 600_000

    /// - Throws: ``APIError`` 400 `invalid_query` for unknown parameters or values.
    init(_ query: QueryParameters) throws(APIError) {
        if query.isEmpty {  // the usual case, without building a set of known names
            self = .reduced
            return
        }
        if let unknown = query.unknown(["wait", "timeout_ms"]).first {
            throw Self.invalid("Unknown query parameter \(JSONText.quoted(unknown)); this endpoint takes wait=settled and timeout_ms.")
        }
        switch query["wait"] {
        case nil:
            guard query["timeout_ms"] == nil else { throw Self.invalid("timeout_ms goes with wait=settled.") }
            self = .reduced
        case "settled":
            var timeoutMs = Self.defaultTimeoutMs
            if let text = query["timeout_ms"] {
                guard let value = Int(text), (0...Self.maxTimeoutMs).contains(value) else {
                    throw Self.invalid("timeout_ms must be an integer from 0 to \(Self.maxTimeoutMs) (milliseconds).")
                }
                timeoutMs = value
            }
            self = .settled(.milliseconds(timeoutMs))
        case let other?:
            throw Self.invalid(
                "wait=\(JSONText.quoted(other)) is not supported; use wait=settled, or leave wait out to answer once reduced.")
        }
    }

    /// Whether the answer waits for the action's effects.
    var isSettled: Bool {
        if case .settled = self { return true }
        return false
    }

    /// The timeout of a settled wait in whole milliseconds (0 for `reduced`).
    var timeoutMs: Int64 {
        guard case .settled(let timeout) = self else { return 0 }
        return timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
    }

    private static func invalid(_ message: String) -> APIError {
        .invalidQuery(message)
    }
}
