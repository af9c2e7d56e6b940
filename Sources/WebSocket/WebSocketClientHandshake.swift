internal import CCrypto

/// The client side of the opening handshake (RFC 6455 §4.1): the request to send, and the check of the server's
/// answer.
///
/// Made once per connection attempt: it holds a fresh `Sec-WebSocket-Key` (16 random bytes from libcrypto's
/// `RAND_bytes`, base64), so ``requestBytes`` and ``validate(status:fields:)`` belong together. HTTP parsing is not
/// this module's: the caller reads the response head (status and fields) and hands them in.
///
/// ## Thread safety
/// A value type (`Sendable`).
public struct WebSocketClientHandshake: Sendable, Equatable {
    /// The `Sec-WebSocket-Key` value sent: base64 of 16 random bytes (§4.1 item 7), 24 characters.
    public let key: String
    /// The request bytes: `GET <path> HTTP/1.1`, `Host`, `Upgrade: websocket`, `Connection: Upgrade`,
    /// `Sec-WebSocket-Key`, `Sec-WebSocket-Version: 13`, then the extra fields in order, then the blank line.
    public let requestBytes: [UInt8]
    /// The subprotocols offered in an extra `Sec-WebSocket-Protocol` field (§4.1 item 10); usually none.
    public let offeredSubprotocols: [String]

    /// Field names the handshake writes itself (§4.1 items 4–9) or does not negotiate (`Sec-WebSocket-Extensions`):
    /// not allowed among the extra fields.
    static let reservedFieldNames = [
        "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions",
    ]

    /// Builds the request.
    /// - Parameters:
    ///   - path: the request-target, origin form (`/ws`, `/prefix/ws?x=1`): starts with `/`, visible ASCII only.
    ///   - host: the `Host` field value (§4.1 item 4), e.g. `127.0.0.1:8080` or `[::1]:8080`.
    ///   - fields: extra fields, e.g. `Authorization: Bearer …` or `Origin` (§4.1 item 8); names must be tokens (RFC 9110
    ///     §5.1) and not one of the handshake's own, values must hold no CR, LF or NUL.
    ///   - key: the key to send instead of a random one (tests: the RFC 6455 §1.3 example); must be 16 bytes in base64.
    /// - Throws: ``WebSocketClientHandshakeError`` naming the bad path, host, field or key.
    public init(
        path: String, host: String, fields: [(name: String, value: String)] = [], key: String? = nil
    ) throws(WebSocketClientHandshakeError) {
        _ = Self.libcryptoKeptUntilExit
        guard path.hasPrefix("/"), path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw WebSocketClientHandshakeError("The WebSocket path \"\(path)\" must start with / and hold visible ASCII only.")
        }
        guard !host.isEmpty, Self.isFieldValue(host) else {
            throw WebSocketClientHandshakeError("The Host value \"\(host)\" must not be empty nor hold CR, LF or NUL.")
        }
        for field in fields {
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(Self.isTokenByte) else {
                throw WebSocketClientHandshakeError("The field name \"\(field.name)\" is not an HTTP token (RFC 9110 §5.1).")
            }
            guard !Self.reservedFieldNames.contains(where: { WebSocketHandshake.equalsIgnoringASCIICase(field.name, $0) }) else {
                throw WebSocketClientHandshakeError("The field \(field.name) is written by the opening handshake itself; leave it out.")
            }
            guard Self.isFieldValue(field.value) else {
                throw WebSocketClientHandshakeError("The value of the field \(field.name) must not hold CR, LF or NUL.")
            }
        }
        if let key {
            guard let decoded = Base64.decode(Substring(key)), decoded.count == 16 else {
                throw WebSocketClientHandshakeError("A Sec-WebSocket-Key must be 16 bytes in base64 (RFC 6455 §4.1).")
            }
            self.key = key
        } else {
            self.key = Base64.encode(Self.randomBytes(16))
        }
        var head = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(self.key)\r\nSec-WebSocket-Version: 13\r\n"
        for field in fields { head += "\(field.name): \(field.value)\r\n" }
        head += "\r\n"
        requestBytes = Array(head.utf8)
        let offered = WebSocketHandshake.values(named: "sec-websocket-protocol", in: fields)
        offeredSubprotocols = offered.flatMap { value in
            value.split(separator: ",").map { String(WebSocketHandshake.trimmed($0)) }.filter { !$0.isEmpty }
        }
    }

    /// The `Sec-WebSocket-Accept` value the server must answer with (§4.1, computed as in §4.2.2).
    public var expectedAccept: String { WebSocketHandshake.acceptValue(forKey: key) }

    /// Checks the server's answer (§4.1, "the client MUST validate the server's response"): status 101; an `Upgrade`
    /// field listing `websocket`; a `Connection` field listing `upgrade`; exactly one `Sec-WebSocket-Accept` equal to
    /// ``expectedAccept``; no `Sec-WebSocket-Extensions` (none was asked for); no `Sec-WebSocket-Protocol` unless it
    /// names one subprotocol that was offered. Names compare ASCII case-insensitively, list elements trimmed.
    /// - Parameters:
    ///   - status: the response's status code.
    ///   - fields: its header fields as received.
    /// - Returns: the subprotocol the server chose (one of ``offeredSubprotocols``), or nil.
    /// - Throws: ``WebSocketClientHandshakeError`` saying which check failed (the connection must be failed, §4.1).
    @discardableResult
    public func validate(status: Int, fields: [(name: String, value: String)]) throws(WebSocketClientHandshakeError) -> String? {
        guard status == 101 else {
            throw WebSocketClientHandshakeError("The server answered the opening handshake with status \(status), not 101.")
        }
        guard WebSocketHandshake.containsToken("websocket", in: WebSocketHandshake.values(named: "upgrade", in: fields)) else {
            throw WebSocketClientHandshakeError("The server's 101 lacks 'Upgrade: websocket' (RFC 6455 §4.1).")
        }
        guard WebSocketHandshake.containsToken("upgrade", in: WebSocketHandshake.values(named: "connection", in: fields)) else {
            throw WebSocketClientHandshakeError("The server's 101 lacks 'Connection: Upgrade' (RFC 6455 §4.1).")
        }
        let accepts = WebSocketHandshake.values(named: "sec-websocket-accept", in: fields)
        guard accepts.count == 1, WebSocketHandshake.trimmed(accepts[0]) == expectedAccept else {
            throw WebSocketClientHandshakeError(
                "The server's Sec-WebSocket-Accept does not match the key sent (RFC 6455 §4.1); it is not a WebSocket server for this request.")
        }
        guard WebSocketHandshake.values(named: "sec-websocket-extensions", in: fields).isEmpty else {
            throw WebSocketClientHandshakeError("The server's 101 names an extension this client did not ask for (RFC 6455 §4.1).")
        }
        let protocols = WebSocketHandshake.values(named: "sec-websocket-protocol", in: fields)
        guard !protocols.isEmpty else { return nil }
        let chosen = String(WebSocketHandshake.trimmed(protocols[0]))
        guard protocols.count == 1, offeredSubprotocols.contains(chosen) else {
            throw WebSocketClientHandshakeError("The server's 101 names a subprotocol this client did not offer (RFC 6455 §4.1).")
        }
        return chosen
    }

    /// Initializes libcrypto without its exit-time cleanup (`OPENSSL_INIT_NO_ATEXIT`), once, before the client's first
    /// use of it: a client app that returns from `main` while its loop thread is in a handshake (`RAND_bytes`, SHA-1)
    /// crashed now and then in libcrypto's `atexit` handler, which frees what that thread was using. The process is
    /// ending anyway; the kernel frees it. No effect when libcrypto was initialized before (e.g. by the server).
    static let libcryptoKeptUntilExit: Bool = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1

    /// `count` bytes from libcrypto's CSPRNG (`RAND_bytes`); should it fail, from the system's (`getrandom`).
    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
        if status != 1 {
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = generator.next() }
        }
        return bytes
    }

    /// RFC 9110 §5.6.2 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// A field value this client may write: no CR, LF or NUL (RFC 9110 §5.5).
    static func isFieldValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}

/// Why an opening handshake could not be made or was not accepted: one sentence (RFC 6455 §4.1).
public struct WebSocketClientHandshakeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
