import Foundation
import Synchronization
import Locking

/// An RFC 6455 WebSocket client on a plain TCP socket, for tests.
///
/// The opening handshake (§4.1) sends a random 16-byte `Sec-WebSocket-Key` and requires
/// `101`, `Upgrade: websocket`, `Connection: Upgrade` and the matching `Sec-WebSocket-Accept`.
/// Frames are sent masked with a fresh random masking key (§5.3). Fragmented server messages
/// are reassembled; control frames (ping, pong, close) are handed back as they arrive, with no
/// automatic pong. The one automatic reply: the first close frame received is echoed with its
/// code (§5.5.1) unless a close was already sent.
///
/// Server frames are checked strictly and any violation throws: masked frames, RSV bits
/// (no extension is negotiated), unknown opcodes, fragmented or oversized control frames,
/// stray continuations, invalid UTF-8 in text or close reasons.
///
/// ## Thread safety
/// Safe to share: one thread may send while another receives. Receives are serialised with
/// each other, and so are sends.
public final class TestWebSocketClient: @unchecked Sendable {
    /// Largest message (bytes) the client will reassemble before throwing.
    public static let maxMessageBytes = 16 * 1024 * 1024

    /// The server port this client is connected to.
    public let port: UInt16
    /// The request target of the handshake, e.g. `"/stores/counter/ws"`.
    public let path: String
    /// The server's `101 Switching Protocols` response.
    public let handshakeResponse: TestHTTPResponse

    let reader: BufferedReader
    /// Serialises receives; guards `partialMessage` and `closeWasReceived` (held around every use of them).
    let receiveLock = Locked(())
    private let closeWasSent = Locked(false)
    /// Reassembly state: opcode and payload of a message whose final fragment has not arrived.
    /// Guarded by `receiveLock`.
    var partialMessage: (opcode: UInt8, payload: [UInt8])?
    /// Whether a close frame was received. Guarded by `receiveLock`.
    var closeWasReceived = false

    /// Connects and performs the opening handshake (§4.1).
    ///
    /// - Parameters:
    ///   - port: the server's TCP port on 127.0.0.1.
    ///   - path: request target, e.g. `"/stores/counter/ws"`.
    ///   - extraFields: extra request fields `(name, value)` sent after the standard ones.
    ///   - timeout: bound on the connect and on waiting for the handshake response (default 5 s).
    ///   - receiveBufferBytes: the socket's `SO_RCVBUF` (see ``TestSocket/init(port:timeout:receiveBufferBytes:)``).
    /// - Throws: `TestClientError` if the connection fails, the status is not 101 (the message
    ///   carries the status and body), or the `101` response is not a valid upgrade.
    public init(port: UInt16, path: String, extraFields: [(String, String)] = [],
                timeout: Duration = .seconds(5), receiveBufferBytes: Int? = nil) throws {
        self.port = port
        self.path = path
        let socket = try TestSocket(port: port, timeout: timeout, receiveBufferBytes: receiveBufferBytes)
        reader = BufferedReader(socket: socket)
        let key = Self.randomKey()
        let request = TestHTTPClient.encodeRequest(
            method: "GET", path: path, port: port, body: nil,
            fields: Self.handshakeFields(port: port, key: key) + extraFields)
        do {
            try socket.send(request)
            let response = try reader.readResponse(deadline: .after(timeout), bodyless: false)
            try Self.validateUpgrade(response, key: key, path: path)
            handshakeResponse = response
        } catch {
            socket.close()
            throw error
        }
    }

    /// Whether `close()` / `sendClose` has sent a close frame; marks it sent when `mark` is true.
    func closeSent(mark: Bool) -> Bool {
        closeWasSent.withLock { sent in
            let was = sent
            if mark { sent = true }
            return was
        }
    }

    /// Closes cleanly: sends close code 1000 unless a close frame was sent or received, waits up
    /// to 1 s for the server's close frame or EOF, then shuts the TCP connection. Idempotent;
    /// never throws. (If another thread is inside a `receive`, the wait starts when it returns.)
    public func close() {
        let received = receiveLock.withLock { closeWasReceived }
        if !received {
            if !closeSent(mark: false) { try? sendClose(code: 1000) }
            _ = try? receiveClose(timeout: .seconds(1))
        }
        reader.socket.close()
    }

    /// Drops the TCP connection at once, with no close frame (an abrupt client disappearance).
    public func dropConnection() {
        reader.socket.close()
    }
}
