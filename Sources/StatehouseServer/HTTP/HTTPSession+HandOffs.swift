import HTTP1
import WebSocket

/// Streaming hand-offs: the connection leaves HTTP for a WebSocket session (RFC 6455) or a server-sent event stream.
extension HTTPSession {
    /// Hands the connection to an SSE stream (`text/event-stream`); the response never ends by itself. Its head
    /// carries the CORS fields of an allowed `Origin`, as every other response does.
    func streamEvents(_ request: HTTPRequest, from store: HostedStore) {
        let stream: StreamRequest
        do {
            stream = try StreamRequest(QueryParameters(request.query), lastEventID: request.fields["Last-Event-ID"])
        } catch {
            send(error: error, keepAlive: request.keepAlive, headOnly: request.method == "HEAD")
            return
        }
        if request.method == "HEAD" { return sendStreamHead(keepAlive: request.keepAlive) }
        handOff()
        let session = SSESession(
            connection: connection, connectionID: connectionID, store: store, context: context, channel: stream.channel)
        context.replace(self, with: session)
        session.start(resume: stream.resume, fields: corsFields + [requestIDField])
    }

    /// `HEAD /stores/{name}/events`: the head a GET's stream starts with (200 `text/event-stream`, chunked, the CORS
    /// fields of an allowed `Origin`) and nothing after it (RFC 9110 §9.3.2; RFC 9112 §6.3: a response to HEAD has no
    /// content whatever its framing fields say). No stream starts: the connection stays HTTP, kept alive when the
    /// request asked for it, and the next request is answered.
    private func sendStreamHead(keepAlive requested: Bool) {
        context.loop.assertInLoop()
        guard let keepAlive = rules.responseStarted(keepAlive: requested && !context.isShuttingDown) else { return }
        context.logger.debug(
            "http HEAD \(current.path) → 200 (stream head only)\(keepAlive ? "" : ", closing")", metadata: requestMetadata)
        connection.write(ServerSentEvents.responseHead(fields: corsFields + [requestIDField], closing: !keepAlive))
        if !keepAlive {
            connection.closeAfterWrites()
        } else if connection.isWritePaused {
            rules.writesPaused()
        }
    }

    /// Completes an RFC 6455 opening handshake (§4.2.2) and hands the socket to a ``WebSocketSession``; anything
    /// else is answered as plain HTTP and the connection closed (the bytes after an upgrade request are not HTTP).
    func upgrade(_ request: HTTPRequest, leftover: [UInt8]) {
        let home: HostedStore?
        let route = try? Route.match(method: request.method, path: request.path)
        switch route {
        case .webSocket(let name)?:
            guard checkOrigin(request.closing), authorize(request.closing, .webSocket(name)) != nil else { return }
            guard let store = store(named: name, request.closing) else { return }
            home = store
        case .multiplexed?:
            guard checkOrigin(request.closing), authorize(request.closing, .multiplexed) != nil else { return }
            home = nil
        default:
            var plain = request
            plain.keepAlive = false
            return dispatch(plain)
        }
        let access = (route.flatMap { authorize(silently: request, $0) }) ?? .open
        let accept: WebSocketHandshakeAccept
        switch Self.handshake(request) {
        case .success(let valid): accept = valid
        case .failure(let error): return send(error: error, keepAlive: false, headOnly: false)
        }
        var stream: StreamRequest?
        if home != nil {
            do {
                stream = try StreamRequest(QueryParameters(request.query))
            } catch {
                return send(error: error, keepAlive: false, headOnly: false)
            }
        }
        if context.isShuttingDown { return send(error: .shuttingDownNoUpgrade, keepAlive: false, headOnly: false) }
        // A subprotocol is echoed only when the client offered it: `bearer.<token>` carried its credential.
        let subprotocol = context.auth != nil ? AccessPolicy.bearerSubprotocol(of: request) : nil
        connection.write(Self.switchingProtocolsHead(accept: accept, subprotocol: subprotocol, requestID: requestID))
        context.logger.debug("ws \(home?.name ?? "/ws") opened", metadata: requestMetadata(store: home?.name))
        handOff()
        let session = WebSocketSession(
            connection: connection, connectionID: connectionID, context: context, home: home, access: access)
        context.replace(self, with: session)
        session.start(leftover: leftover, channel: stream?.channel, resume: stream?.resume)
    }

    /// The RFC 6455 §4.2.1 check of a would-be handshake: the `Sec-WebSocket-Accept` value of a valid one (computed
    /// once, here), or the problem as an API error.
    static func handshake(_ request: HTTPRequest) -> Result<WebSocketHandshakeAccept, APIError> {
        if request.versionMajor == 1, request.versionMinor < 1 { return .failure(.webSocketNeedsHTTP11) }
        let fields = request.fields.lazy.map { (name: $0.name, value: $0.value) }
        return WebSocketHandshake.validate(method: request.method, fields: fields).mapError { APIError($0) }
    }

    /// The 101 response head (RFC 6455 §4.2.2): `Upgrade`, `Connection`, `Sec-WebSocket-Accept`, the chosen
    /// `Sec-WebSocket-Protocol` when there is one, and ``RequestID/fieldName``, written straight into one byte array (issue 18:
    /// string interpolation and concatenation here cost about 4,500 instructions per handshake).
    static func switchingProtocolsHead(accept: WebSocketHandshakeAccept, subprotocol: String?, requestID: String) -> [UInt8] {
        var head: [UInt8] = []
        head.reserveCapacity(256)
        head.append(contentsOf: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n".utf8)
        head.append(contentsOf: "Sec-WebSocket-Accept: ".utf8)
        head.append(contentsOf: accept.acceptValue.utf8)
        if let subprotocol {
            head.append(contentsOf: "\r\nSec-WebSocket-Protocol: ".utf8)
            head.append(contentsOf: subprotocol.utf8)
        }
        head.append(contentsOf: "\r\n".utf8)
        head.append(contentsOf: RequestID.fieldName.utf8)
        head.append(contentsOf: ": ".utf8)
        head.append(contentsOf: requestID.utf8)
        head.append(contentsOf: "\r\n\r\n".utf8)
        return head
    }
}

extension HTTPRequest {
    /// The same request, marked so its answer closes the connection.
    var closing: HTTPRequest {
        var copy = self
        copy.keepAlive = false
        return copy
    }
}
