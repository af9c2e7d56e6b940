import Foundation

/// One HTTP/1.1 response as read by `TestHTTPClient` or a WebSocket handshake (RFC 9112 §2.1).
public struct TestHTTPResponse: Sendable {
    /// The HTTP version from the status line, e.g. `"HTTP/1.1"`.
    public var version: String
    /// The three-digit status code (RFC 9110 §15), e.g. `200`, `101`, `400`.
    public var status: Int
    /// The reason phrase from the status line (may be empty).
    public var reason: String
    /// Header fields in wire order, names as sent, values with surrounding whitespace trimmed.
    public var fields: [(name: String, value: String)]
    /// The message body (bytes), framed by `Content-Length`, or by EOF when there is none.
    public var body: [UInt8]

    /// Creates a response from its parts.
    public init(version: String = "HTTP/1.1", status: Int, reason: String = "",
                fields: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.version = version
        self.status = status
        self.reason = reason
        self.fields = fields
        self.body = body
    }

    /// The value of the first field named `name` (case-insensitive, RFC 9110 §5.1), or `nil`.
    public func field(_ name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// All values of fields named `name` (case-insensitive), in wire order.
    public func fieldValues(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    /// The body decoded as UTF-8 (invalid sequences become U+FFFD).
    public var bodyText: String {
        String(decoding: body, as: UTF8.self)
    }

    /// The body parsed as a JSON object (e.g. `{"store":"counter","version":1,...}`).
    ///
    /// Numbers come back as `NSNumber` (`as? Int` works), nested objects as `[String: Any]`.
    /// - Throws: `TestClientError` if the body is not JSON or its top level is not an object.
    public func json() throws -> [String: Any] {
        try JSONObject.parse(body, context: "HTTP \(status) body")
    }
}

extension TestHTTPResponse: CustomStringConvertible {
    /// `"<status> <reason>: <body text>"`, handy in test failure messages.
    public var description: String {
        "\(status) \(reason): \(bodyText)"
    }
}

/// JSON object parsing shared by the HTTP and WebSocket clients.
enum JSONObject {
    static func parse(_ bytes: [UInt8], context: String) throws -> [String: Any] {
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        } catch {
            let text = String(decoding: bytes.prefix(300), as: UTF8.self)
            throw TestClientError("\(context) is not JSON: \(text.debugDescription)")
        }
        guard let object = value as? [String: Any] else {
            let text = String(decoding: bytes.prefix(300), as: UTF8.self)
            throw TestClientError("\(context) is JSON but not an object: \(text.debugDescription)")
        }
        return object
    }
}
