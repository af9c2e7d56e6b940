import Foundation
import Synchronization
import Locking

/// An HTTP/1.1 client over one keep-alive TCP connection to `127.0.0.1:port` (RFC 9112).
///
/// `request` writes one request and reads one response framed by `Content-Length`.
/// For hostile-input tests, `sendRaw` writes any bytes and `readResponse` /
/// `isClosedByPeer` observe what the server does with them.
///
/// ## Thread safety
/// Safe to share; calls are serialised, so concurrent `request`s do not interleave.
public final class TestHTTPClient: @unchecked Sendable {
    /// The server port this client is connected to.
    public let port: UInt16
    /// Time allowed for each response in `request` (default 5 s).
    public let timeout: Duration
    private let reader: BufferedReader
    /// Serialises the calls (it guards no value: the reader is used only while it is held).
    private let lock = Locked(())

    /// Opens the connection to `127.0.0.1:port`.
    ///
    /// - Parameters:
    ///   - port: the server's TCP port.
    ///   - timeout: bound on the connect and on each response in `request` (default 5 s).
    /// - Throws: `TestClientError` if the connect fails.
    public init(port: UInt16, timeout: Duration = .seconds(5)) throws {
        self.port = port
        self.timeout = timeout
        self.reader = BufferedReader(socket: try TestSocket(port: port, timeout: timeout))
    }

    /// Sends one request and reads its response on the same connection.
    ///
    /// Adds `Host: 127.0.0.1:<port>` unless `fields` has a `Host`; with a `body`, adds
    /// `Content-Length` and, unless given, `Content-Type: application/json`.
    ///
    /// - Parameters:
    ///   - method: request method, e.g. `"GET"`, `"POST"` (a `HEAD` response is read without body).
    ///   - path: request target, e.g. `"/stores/counter/actions"`.
    ///   - body: UTF-8 body text, e.g. `#"{"type":"increment"}"#`.
    ///   - fields: extra header fields `(name, value)`, sent in order.
    /// - Returns: the response; any status is returned, not thrown.
    /// - Throws: `TestClientError` if sending fails, the server closes before a full response,
    ///   or no full response arrives within `timeout`.
    public func request(_ method: String, _ path: String, body: String? = nil,
                        fields: [(String, String)] = []) throws -> TestHTTPResponse {
        let bytes = Self.encodeRequest(method: method, path: path, port: port,
                                       body: body.map { Array($0.utf8) }, fields: fields)
        return try lock.withLock {
            try reader.socket.send(bytes)
            return try reader.readResponse(deadline: .after(timeout), bodyless: method.uppercased() == "HEAD")
        }
    }

    /// Writes `bytes` exactly as given (no framing, no fields added).
    ///
    /// - Throws: `TestClientError` if the peer has closed or reset the connection.
    public func sendRaw(_ bytes: [UInt8]) throws {
        try reader.socket.send(bytes)
    }

    /// Writes the UTF-8 bytes of `text` exactly as given.
    ///
    /// - Throws: as `sendRaw(_:)` with bytes.
    public func sendRaw(_ text: String) throws {
        try sendRaw(Array(text.utf8))
    }

    /// Reads one response: the head, then a body of `Content-Length` bytes (none for 1xx, 204,
    /// 304), or everything until EOF when there is no `Content-Length`.
    ///
    /// - Parameter deadline: when to give up.
    /// - Throws: `TestClientError` on timeout, EOF before a full response, a malformed head, or
    ///   a chunked response.
    public func readResponse(deadline: ContinuousClock.Instant) throws -> TestHTTPResponse {
        try lock.withLock { try reader.readResponse(deadline: deadline, bodyless: false) }
    }

    /// Waits for the server to close the connection.
    ///
    /// Bytes arriving meanwhile are kept, so a later `readResponse` still sees them.
    /// - Parameter deadline: how long to wait.
    /// - Returns: `true` if EOF or a connection reset was seen before `deadline`, `false` if the
    ///   connection was still open then.
    public func isClosedByPeer(deadline: ContinuousClock.Instant) -> Bool {
        lock.withLock {
            do {
                while try reader.fill(deadline: deadline) {}
                return true
            } catch let error as TestClientError {
                return !error.isTimeout
            } catch {
                return true
            }
        }
    }

    /// Half-closes the connection (sends FIN); responses can still be read.
    public func shutdownWrite() {
        reader.socket.shutdownWrite()
    }

    /// Closes the connection. Idempotent.
    public func close() {
        reader.socket.close()
    }

    /// Serialises a request message (RFC 9112 §3): request line, fields, blank line, body.
    static func encodeRequest(method: String, path: String, port: UInt16, body: [UInt8]?,
                              fields: [(String, String)]) -> [UInt8] {
        func has(_ name: String) -> Bool {
            fields.contains { $0.0.caseInsensitiveCompare(name) == .orderedSame }
        }
        var head = "\(method) \(path) HTTP/1.1\r\n"
        if !has("Host") { head += "Host: 127.0.0.1:\(port)\r\n" }
        for (name, value) in fields { head += "\(name): \(value)\r\n" }
        if let body {
            if !has("Content-Type") { head += "Content-Type: application/json\r\n" }
            if !has("Content-Length") { head += "Content-Length: \(body.count)\r\n" }
        }
        head += "\r\n"
        return Array(head.utf8) + (body ?? [])
    }
}
