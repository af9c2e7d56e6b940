/// A valid opening handshake: what to put in the 101 response (RFC 6455 §4.2.2).
public struct WebSocketHandshakeAccept: Sendable, Equatable {
    /// The `Sec-WebSocket-Accept` field value (28 base64 characters).
    public var acceptValue: String

    /// Creates an accept result.
    public init(acceptValue: String) {
        self.acceptValue = acceptValue
    }
}

/// A rejected opening handshake: the HTTP error response to send instead of 101 (RFC 6455 §4.2.1, §4.4).
public struct WebSocketHandshakeError: Error, Sendable, Equatable {
    /// The HTTP status code: 400 (malformed handshake) or 426 (Upgrade Required / unsupported version).
    public var status: Int
    /// A snake_case error code for the JSON error body: `invalid_websocket_handshake`, `upgrade_required`
    /// or `unsupported_websocket_version`.
    public var code: String
    /// One sentence telling the client what to do.
    public var message: String
    /// Response fields to add, e.g. `Upgrade: websocket` (RFC 9110 §15.5.22) or
    /// `Sec-WebSocket-Version: 13` (RFC 6455 §4.4).
    public var extraFields: [(name: String, value: String)]

    /// Creates a handshake error.
    public init(status: Int, code: String, message: String, extraFields: [(name: String, value: String)] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.extraFields = extraFields
    }

    /// Equal when status, code, message and every extra field (in order) match.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.status == rhs.status && lhs.code == rhs.code && lhs.message == rhs.message
            && lhs.extraFields.elementsEqual(rhs.extraFields) { $0.name == $1.name && $0.value == $1.value }
    }

    /// A 400 `invalid_websocket_handshake` with `message`.
    static func invalid(_ message: String) -> Self {
        Self(status: 400, code: "invalid_websocket_handshake", message: message)
    }

    /// The fields every 426 carries: the protocol to upgrade to (RFC 9110 §15.5.22) and, as a sender of `Upgrade`
    /// must, `Connection: Upgrade` (RFC 9110 §7.8).
    public static let upgradeFields: [(name: String, value: String)] = [
        (name: "Upgrade", value: "websocket"), (name: "Connection", value: "Upgrade"),
    ]

    /// 426 for a request with no `Upgrade` field.
    static let upgradeRequired = Self(
        status: 426, code: "upgrade_required", message: "Send 'Upgrade: websocket' to open a WebSocket.",
        extraFields: upgradeFields)

    /// 426 for a missing or unsupported `Sec-WebSocket-Version` (RFC 6455 §4.4: the versions supported are named).
    static let unsupportedVersion = Self(
        status: 426, code: "unsupported_websocket_version", message: "Send 'Sec-WebSocket-Version: 13'.",
        extraFields: [(name: "Sec-WebSocket-Version", value: "13")] + upgradeFields)
}
