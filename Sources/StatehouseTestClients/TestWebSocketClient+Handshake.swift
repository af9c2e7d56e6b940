private import CCrypto
import Foundation

extension TestWebSocketClient {
    /// The GUID appended to the key before hashing (RFC 6455 §1.3).
    static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// A fresh `Sec-WebSocket-Key`: 16 random bytes, base64 (24 characters, §4.1).
    public static func randomKey() -> String {
        Data((0..<16).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString()
    }

    /// The `Sec-WebSocket-Accept` value for `key`: base64(SHA-1(key + GUID)) (§4.2.2).
    ///
    /// `acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="` (§1.3).
    public static func acceptValue(for key: String) -> String {
        let input = Array((key + acceptGUID).utf8)
        var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        _ = SHA1(input, input.count, &digest)
        return Data(digest).base64EncodedString()
    }

    /// The standard handshake request fields for a valid upgrade (§4.1), in order: `Host`,
    /// `Upgrade`, `Connection`, `Sec-WebSocket-Key`, `Sec-WebSocket-Version: 13`.
    ///
    /// Start from these in `attemptHandshake` tests and drop or alter one field.
    public static func handshakeFields(port: UInt16, key: String = randomKey()) -> [(String, String)] {
        [
            ("Host", "127.0.0.1:\(port)"),
            ("Upgrade", "websocket"),
            ("Connection", "Upgrade"),
            ("Sec-WebSocket-Key", key),
            ("Sec-WebSocket-Version", "13"),
        ]
    }

    /// Sends `GET <path> HTTP/1.1` with exactly `fields` (nothing added, not even `Host`), reads
    /// one response, and closes the connection. For tests of rejected handshakes (4xx).
    ///
    /// - Parameters:
    ///   - port: the server's TCP port on 127.0.0.1.
    ///   - path: request target.
    ///   - fields: every request field, `(name, value)`, in order.
    ///   - timeout: bound on the connect and on the response (default 5 s).
    /// - Returns: the response whatever its status; a `101` has an empty body.
    /// - Throws: `TestClientError` if the connection fails or no full response arrives.
    public static func attemptHandshake(port: UInt16, path: String, fields: [(String, String)],
                                        timeout: Duration = .seconds(5)) throws -> TestHTTPResponse {
        let socket = try TestSocket(port: port, timeout: timeout)
        defer { socket.close() }
        var head = "GET \(path) HTTP/1.1\r\n"
        for (name, value) in fields { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        try socket.send(head)
        return try BufferedReader(socket: socket).readResponse(deadline: .after(timeout), bodyless: false)
    }

    /// Checks a handshake response per §4.1 (client requirements 1–4).
    static func validateUpgrade(_ response: TestHTTPResponse, key: String, path: String) throws {
        guard response.status == 101 else {
            throw TestClientError("WebSocket handshake for \(path) got HTTP \(response.status) "
                                  + "\(response.reason): \(response.bodyText)")
        }
        guard response.field("Upgrade")?.lowercased() == "websocket" else {
            throw TestClientError("101 response lacks Upgrade: websocket (got \(response.field("Upgrade") ?? "none"))")
        }
        let tokens = (response.field("Connection") ?? "").lowercased()
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard tokens.contains("upgrade") else {
            throw TestClientError("101 response lacks Connection: Upgrade (got \(response.field("Connection") ?? "none"))")
        }
        let expected = acceptValue(for: key)
        guard response.field("Sec-WebSocket-Accept") == expected else {
            throw TestClientError("Sec-WebSocket-Accept is \(response.field("Sec-WebSocket-Accept") ?? "missing"), "
                                  + "expected \(expected)")
        }
    }
}
