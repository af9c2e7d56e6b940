import JSON

/// The wait of a WebSocket `action` message: `"wait":"settled"` and `"timeout_ms":N` (docs/protocol.md, *Client →
/// server*), the same choice as the query of `POST /stores/{name}/actions`.
extension ActionWait {
    /// Reads `wait` and `timeout_ms` from an `action` message (null counts as absent).
    /// - Throws: ``APIError`` 400 `invalid_message` naming the field: `wait` other than `"settled"`, `timeout_ms` not
    ///   an integer from 0 to 600000 (milliseconds), or `timeout_ms` without `"wait":"settled"`.
    init(message: JSONObject) throws(APIError) {
        var timeout = message["timeout_ms"]
        if case .null? = timeout { timeout = nil }
        switch message["wait"] {
        case nil, .null?:
            guard timeout == nil else {
                throw .invalidMessage("\"timeout_ms\" goes with \"wait\":\"settled\"; add it, or leave timeout_ms out.")
            }
            self = .reduced
        case .string("settled")?:
            guard let timeout else {
                self = .settled(.milliseconds(Self.defaultTimeoutMs))
                return
            }
            guard case .number(let number) = timeout, let ms = number.intValue, (0...Self.maxTimeoutMs).contains(ms) else {
                throw .invalidMessage(
                    "\"timeout_ms\" must be an integer from 0 to \(Self.maxTimeoutMs) (milliseconds).")
            }
            self = .settled(.milliseconds(ms))
        default:
            throw .invalidMessage(
                "\"wait\" must be \"settled\" (ack once the action and its effects finished), or left out (ack once reduced).")
        }
    }
}
