/// A 16-bit status code carried in the first two bytes of a Close frame payload (RFC 6455 §7.4).
///
/// Any `UInt16` can be represented; `isSendable` tells whether it may appear on the wire.
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable {
    /// The numeric code, e.g. 1000.
    public var rawValue: UInt16

    /// Wraps a numeric close code. Never fails; use `isSendable` to check validity.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 1000: the purpose of the connection has been fulfilled (§7.4.1).
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// 1001: the endpoint is going away, e.g. server shutdown (§7.4.1).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: the peer broke the framing protocol (§7.4.1).
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: the endpoint cannot accept this kind of data (§7.4.1).
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1005: reported locally when a Close frame had no code; never sent (§7.4.1).
    public static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
    /// 1007: message data inconsistent with its type, e.g. invalid UTF-8 in text (§7.4.1).
    public static let invalidFramePayloadData = WebSocketCloseCode(rawValue: 1007)
    /// 1008: the message violates the endpoint's policy (§7.4.1).
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: the message is too big to process (§7.4.1).
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1011: the server hit an unexpected condition (§7.4.1, registered in §11.7).
    public static let internalServerError = WebSocketCloseCode(rawValue: 1011)

    /// 1012: the service is restarting (IANA WebSocket Close Code Number Registry, RFC 6455 §11.7).
    public static let serviceRestart = WebSocketCloseCode(rawValue: 1012)
    /// 1013: try again later, e.g. the server is overloaded (IANA registry, RFC 6455 §11.7).
    public static let tryAgainLater = WebSocketCloseCode(rawValue: 1013)
    /// 1014: a gateway or proxy got an invalid response from upstream (IANA registry, RFC 6455 §11.7).
    public static let badGateway = WebSocketCloseCode(rawValue: 1014)

    /// Whether an endpoint may put this code in a Close frame (§7.4.1, §7.4.2, and the codes IANA registered since
    /// under §11.7): 1000–1003, 1007–1014 and the application/private range 3000–4999.
    /// 1004–1006 and 1015 are reserved or local-only; 0–999, 1016–2999 and 5000+ are not allowed here.
    public var isSendable: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
