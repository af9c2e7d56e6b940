import CCrypto

/// The server side of the opening handshake (RFC 6455 §4.2).
public enum WebSocketHandshake {
    /// The GUID appended to the client's key before hashing (§1.3, §4.2.2).
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// base64(SHA-1(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11")) via libcrypto (§4.2.2, §1.3).
    ///
    /// `key` is the `Sec-WebSocket-Key` value as sent (not decoded). Returns the 28-character value for the
    /// `Sec-WebSocket-Accept` response field, e.g. "dGhlIHNhbXBsZSBub25jZQ==" → "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".
    public static func acceptValue(forKey key: String) -> String {
        let input = Array((key + guid).utf8)
        var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        input.withUnsafeBufferPointer { source in
            digest.withUnsafeMutableBufferPointer { out in
                _ = SHA1(source.baseAddress, source.count, out.baseAddress)
            }
        }
        return Base64.encode(digest)
    }

    /// Checks an opening handshake (§4.2.1). `fields`: (name, value) pairs as received, names in any case.
    ///
    /// Checks, in this order: method is `GET` (400); an `Upgrade` field exists (426 `upgrade_required`) and
    /// lists the token `websocket` (400); `Connection` lists `upgrade` (400); `Sec-WebSocket-Version` is `13`
    /// (426 `unsupported_websocket_version`); exactly one `Sec-WebSocket-Key` that base64-decodes to 16 bytes
    /// (400). The 400s use code `invalid_websocket_handshake`. Repeated list fields are combined (RFC 9110 §5.3).
    /// - Returns: the accept value to send in a 101 response, or the error response to send instead.
    public static func validate(
        method: String, fields: [(name: String, value: String)]
    ) -> Result<WebSocketHandshakeAccept, WebSocketHandshakeError> {
        guard method == "GET" else {
            return .failure(.invalid("Open the WebSocket with a GET request, not \(method)."))
        }
        let upgrade = values(named: "upgrade", in: fields)
        guard !upgrade.isEmpty else { return .failure(.upgradeRequired) }
        guard containsToken("websocket", in: upgrade) else {
            return .failure(.invalid("Send 'Upgrade: websocket' to open a WebSocket."))
        }
        guard containsToken("upgrade", in: values(named: "connection", in: fields)) else {
            return .failure(.invalid("Send 'Connection: Upgrade' to open a WebSocket."))
        }
        let versions = values(named: "sec-websocket-version", in: fields)
        guard versions.count == 1, trimmed(versions[0]) == "13" else { return .failure(.unsupportedVersion) }
        let keys = values(named: "sec-websocket-key", in: fields)
        guard keys.count == 1, let decoded = Base64.decode(trimmed(keys[0])), decoded.count == 16 else {
            return .failure(.invalid("Send one Sec-WebSocket-Key field holding 16 random bytes in base64."))
        }
        return .success(WebSocketHandshakeAccept(acceptValue: acceptValue(forKey: String(trimmed(keys[0])))))
    }
}
