internal import CCrypto

/// The server side of the opening handshake (RFC 6455 §4.2).
public enum WebSocketHandshake {
    /// The GUID appended to the client's key before hashing (§1.3, §4.2.2).
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// libcrypto's SHA-1, fetched from its provider once (`EVP_MD_fetch`) and kept for the life of the process.
    ///
    /// The one-shot `SHA1()` fetches the algorithm on every call (OpenSSL 3: `EVP_Q_digest` → `EVP_MD_fetch`, a
    /// lock and a property lookup): issue 18, callgrind, about 5,400 instructions per hash, of which the hash itself is
    /// about 2,000. An `EVP_MD` is immutable and may be used from any thread; nil if the default provider has no
    /// SHA-1 (then `SHA1()` is used).
    nonisolated(unsafe) private static let sha1: OpaquePointer? = {
        _ = WebSocketClientHandshake.libcryptoKeptUntilExit
        return EVP_MD_fetch(nil, "SHA1", nil)
    }()

    /// base64(SHA-1(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11")) via libcrypto (§4.2.2, §1.3).
    ///
    /// `key` is the `Sec-WebSocket-Key` value as sent (not decoded). Returns the 28-character value for the
    /// `Sec-WebSocket-Accept` response field, e.g. "dGhlIHNhbXBsZSBub25jZQ==" → "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".
    public static func acceptValue(forKey key: String) -> String {
        acceptValue(forKey: Substring(key))
    }

    /// ``acceptValue(forKey:)`` of a key that is a part of a field value (no copy of it is made); the key and the GUID
    /// are joined in a stack buffer for the hash.
    static func acceptValue(forKey key: Substring) -> String {
        let keyBytes = key.utf8
        let guidBytes = guid.utf8
        var digest: (UInt64, UInt64, UInt32) = (0, 0, 0)  // SHA_DIGEST_LENGTH (20) bytes, on the stack
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: keyBytes.count + guidBytes.count) { input in
            var index = input.initialize(fromContentsOf: keyBytes)
            index = input[index...].initialize(fromContentsOf: guidBytes)
            withUnsafeMutableBytes(of: &digest) { out in
                let digestOut = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
                if let sha1 {
                    _ = EVP_Digest(input.baseAddress, index, digestOut, nil, sha1, nil)
                } else {
                    _ = SHA1(input.baseAddress, index, digestOut)
                }
            }
        }
        return withUnsafeBytes(of: &digest) { Base64.encode(UnsafeRawBufferPointer(rebasing: $0[..<Int(SHA_DIGEST_LENGTH)])) }
    }

    /// Checks an opening handshake (§4.2.1). `fields`: (name, value) pairs as received, names in any case.
    ///
    /// Checks, in this order: method is `GET` (400); an `Upgrade` field exists (426 `upgrade_required`) and
    /// lists the token `websocket` (400); `Connection` lists `upgrade` (400); `Sec-WebSocket-Version` is `13`
    /// (426 `unsupported_websocket_version`); exactly one `Sec-WebSocket-Key` that base64-decodes to 16 bytes
    /// (400). The 400s use code `invalid_websocket_handshake`. Repeated list fields are combined (RFC 9110 §5.3).
    /// - Returns: the accept value to send in a 101 response, or the error response to send instead.
    ///
    /// `fields` may be any sequence of pairs (an array, or a lazy view of a parsed request's fields: no array is made).
    public static func validate(
        method: String, fields: some Sequence<(name: String, value: String)>
    ) -> Result<WebSocketHandshakeAccept, WebSocketHandshakeError> {
        guard method == "GET" else {
            return .failure(.invalid("Open the WebSocket with a GET request, not \(method)."))
        }
        let handshake = HandshakeFields(fields)
        guard handshake.upgradeCount > 0 else { return .failure(.upgradeRequired) }
        guard handshake.upgradeListsWebSocket else {
            return .failure(.invalid("Send 'Upgrade: websocket' to open a WebSocket."))
        }
        guard handshake.connectionListsUpgrade else {
            return .failure(.invalid("Send 'Connection: Upgrade' to open a WebSocket."))
        }
        guard handshake.versionCount == 1, trimmed(handshake.version) == "13" else { return .failure(.unsupportedVersion) }
        let key = trimmed(handshake.key)
        guard handshake.keyCount == 1, Base64.decodesTo16Bytes(key) else {
            return .failure(.invalid("Send one Sec-WebSocket-Key field holding 16 random bytes in base64."))
        }
        return .success(WebSocketHandshakeAccept(acceptValue: acceptValue(forKey: key)))
    }
}
