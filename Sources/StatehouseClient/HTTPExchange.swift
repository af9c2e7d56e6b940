package import UVLoop
import HTTP1

/// One HTTP/1.1 request and its response on a connection of its own (`Connection: close`), on the project's transport:
/// the TCP connect (``TCPConnection/connect(on:host:port:completion:)``), the request bytes (RFC 9112 §3, with
/// `Host`, `Content-Length` and `Connection: close`), and the answer read by ``HTTPResponseParser`` (its body by
/// `Content-Length`, chunked coding or the end of the connection, RFC 9112 §6.3). For one-shot callers such as the
/// `statehouse` command line (`stores`, `get`, `send`); ``RemoteServer`` keeps one WebSocket instead.
///
/// Lifecycle (``Phase``):
/// ```
/// connecting ──TCP up: the request is written──▶ awaitingResponse ──complete response──▶ finished (.success)
///     │                                              └──invalid answer, EOF before it, timeout──▶ finished (.failure)
///     └──refused, unresolvable, timeout──────────────────────────────────────────────────────▶ finished (.failure)
/// ```
/// `timeoutMs` covers the whole exchange. The completion is called exactly once, on the loop thread, never from inside
/// ``start(on:endpoint:request:timeoutMs:maxBodyBytes:completion:)``.
///
/// ## Thread safety
/// Loop-confined: start it on its loop's thread; the completion runs there. `@unchecked Sendable` only so a reference
/// can be carried into loop jobs.
package final class HTTPExchange: @unchecked Sendable {
    /// Where the exchange is (see the diagram on ``HTTPExchange``).
    enum Phase { case connecting, awaitingResponse, finished }

    private let loop: EventLoop
    private let endpoint: ServerEndpoint
    private var phase = Phase.connecting
    private var connector: TCPConnector?
    private var connection: TCPConnection?
    private var timer: LoopTimer?
    private var parser: HTTPResponseParser
    private var completion: ((Result<Response, Failure>) -> Void)?

    private init(
        loop: EventLoop, endpoint: ServerEndpoint, maxBodyBytes: Int,
        completion: @escaping (Result<Response, Failure>) -> Void
    ) {
        self.loop = loop
        self.endpoint = endpoint
        self.completion = completion
        parser = HTTPResponseParser(limits: HTTPParserLimits(maxHeaderBytes: 64 << 10, maxBodyBytes: maxBodyBytes))
    }

    /// Sends `request` to `endpoint` and reads the answer. Call on `loop`'s thread.
    /// - Parameters:
    ///   - request: the method, path (under `endpoint.basePath`), extra fields and body.
    ///   - timeoutMs: how long connecting, sending and reading the whole response may take, ms (≥ 1).
    ///   - maxBodyBytes: the largest response body accepted, bytes (default 64 MiB); a larger one fails the exchange.
    ///   - completion: called once with the response (any status), or a ``Failure``: `.cannotConnect` (refused,
    ///     unresolvable host), `.invalidRequest` (a field or path that cannot be sent), `.timedOut`, `.invalidResponse`.
    package static func start(
        on loop: EventLoop, endpoint: ServerEndpoint, request: Request, timeoutMs: Int, maxBodyBytes: Int = 64 << 20,
        completion: @escaping (Result<Response, Failure>) -> Void
    ) {
        loop.assertInLoop()
        let exchange = HTTPExchange(loop: loop, endpoint: endpoint, maxBodyBytes: maxBodyBytes, completion: completion)
        let bytes: [UInt8]
        do {
            bytes = try request.encoded(host: endpoint.authority, basePath: endpoint.basePath)
        } catch {
            loop.execute { exchange.finish(.failure(error)) }
            return
        }
        let timer = LoopTimer(loop: loop)
        exchange.timer = timer
        timer.start(delayMs: UInt64(max(timeoutMs, 1))) {
            let what = exchange.phase == .connecting ? "connect to \(endpoint.authority)" : "get an answer from \(endpoint)"
            exchange.finish(.failure(.timedOut("could not \(what) within \(max(timeoutMs, 1)) ms")))
        }
        exchange.connector = TCPConnection.connect(on: loop, host: endpoint.host, port: endpoint.port) { result in
            exchange.connected(result, sending: bytes)
        }
    }

    /// `connecting` → `awaitingResponse`: the request goes out and reading begins.
    private func connected(_ result: Result<TCPConnection, UVError>, sending bytes: [UInt8]) {
        connector = nil
        guard phase == .connecting else {
            if case .success(let late) = result { late.close() }
            return
        }
        switch result {
        case .failure(let error) where error.operation == "uv_getaddrinfo":
            finish(.failure(.cannotConnect("cannot resolve the host name \(endpoint.host): \(error)")))
        case .failure(let error):
            finish(.failure(.cannotConnect("cannot connect to \(endpoint.authority): \(error)")))
        case .success(let connection):
            self.connection = connection
            phase = .awaitingResponse
            connection.onRead = { [self] bytes in
                if let result = parser.feed(bytes) { answered(result) }
            }
            connection.onEnd = { [self] error in
                if let result = parser.finish() { return answered(result) }
                finish(.failure(.invalidResponse("the connection to \(endpoint.authority) ended: \(error)")))
            }
            connection.write(bytes)
            connection.startReading()
        }
    }

    private func answered(_ result: HTTPResponseParseResult) {
        switch result {
        case .response(let head, let body):
            let fields = head.fields.map { (name: $0.name, value: $0.value) }
            finish(.success(Response(status: head.status, fields: fields, body: body)))
        case .switchingProtocols(let head, _):
            finish(.failure(.invalidResponse("the server answered \(head.status) Switching Protocols to a plain request")))
        case .failure(let error):
            finish(.failure(.invalidResponse("the answer of \(endpoint.authority) is not valid HTTP: \(error.message)")))
        }
    }

    /// `finished`: the connection and timer are closed and the completion is called (once).
    private func finish(_ result: Result<Response, Failure>) {
        guard phase != .finished else { return }
        phase = .finished
        timer?.close()
        timer = nil
        if let connector {
            self.connector = nil
            connector.cancel()
        }
        connection?.onRead = nil
        connection?.onEnd = nil
        connection?.close()
        connection = nil
        let completion = self.completion
        self.completion = nil
        completion?(result)
    }
}
