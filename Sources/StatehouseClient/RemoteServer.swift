import Foundation
import Locking
public import Statehouse
import UVLoop

/// One Statehouse server, reached over one WebSocket (`/ws`, docs/protocol.md) that carries every store this client
/// watches, on the project's own transport (libuv, RFC 6455 client role): no Foundation networking.
///
/// ```swift
/// let server = try RemoteServer("http://127.0.0.1:8080")
/// let counter = server.store("counter", of: Counter.self)
/// let ack = try await counter.send(.increment)      // returns once the server acknowledged it
/// for await snapshot in counter.states() { print(snapshot.version, snapshot.state.count) }
/// await server.close()
/// ```
///
/// The connection opens at once and comes back by itself: exponential backoff with full jitter
/// (``Configuration/backoff``), each store resumed from the version it holds (`epoch` + `since`: one patch, or a
/// snapshot when the server no longer has that version), and every unacknowledged action sent again with its
/// idempotency key, so it is applied at most once. Actions sent while offline queue (``Configuration/maxQueuedActions``)
/// and go out in order.
///
/// The client runs its own event loop thread; ``close()`` ends it. A server dropped without ``close()`` closes itself.
///
/// ## Thread safety
/// Thread-safe: every method may be called from any thread or task.
public final class RemoteServer: Sendable {
    let loop: EventLoop
    let connection: ClientConnection
    let statusBoard = StatusBoard()
    private let closing = Locked(false)

    /// Starts connecting to `url` (`http://host:port`, or `ws://`; a path prefix is kept).
    /// - Throws: ``ClientError/invalidURL(_:)`` for a URL it cannot reach; ``ClientError/closed`` when no event loop
    ///   could be made.
    public init(_ url: String, configuration: Configuration = Configuration()) throws(ClientError) {
        let endpoint: ServerEndpoint
        do {
            endpoint = try ServerEndpoint(parsing: url)
        } catch {
            throw .invalidURL(error.message)
        }
        do {
            loop = try EventLoop()
        } catch {
            throw .closed
        }
        connection = ClientConnection(
            loop: loop, endpoint: endpoint, configuration: configuration, statusBoard: statusBoard)
        loop.start()
        loop.execute { [connection] in connection.start() }
    }

    deinit {
        let first = closing.withLock { closing -> Bool in
            defer { closing = true }
            return !closing
        }
        guard first else { return }
        loop.execute { [connection, loop] in
            connection.close { Thread.detachNewThread { loop.stop() } }
        }
    }

    /// Runs `job` on the client's loop with its connection, unless ``close()`` began: then returns false and `job`
    /// never runs. A job accepted before `close()` runs before the connection closes (the loop runs jobs in order), so
    /// whatever it starts is answered, by the server or with ``ClientError/closed``.
    func onLoop(_ job: @escaping @Sendable (ClientConnection) -> Void) -> Bool {
        closing.withLock { closing in
            guard !closing else { return false }
            loop.execute { [connection] in job(connection) }
            return true
        }
    }

    /// The connection's status now.
    public var status: ConnectionStatus { statusBoard.status }

    /// The status now, then every change, in order; finishes after ``ConnectionStatus/closed``.
    public func statuses() -> AsyncStream<ConnectionStatus> { statusBoard.stream() }

    /// How many actions await their ack now: queued while offline, or written and not yet answered.
    public func pendingActionCount() async -> Int {
        await withCheckedContinuation { continuation in
            let accepted = onLoop { connection in continuation.resume(returning: connection.session.pending.count) }
            if !accepted { continuation.resume(returning: 0) }
        }
    }

    /// A store on this server, typed by the reducer the server hosts it with (the app shares `R`'s `State`, `Action`
    /// and `Event` types with the server through the `Statehouse` module). It subscribes at once.
    /// - Parameters:
    ///   - name: the store's name (`[A-Za-z0-9._-]{1,64}`).
    ///   - type: the reducer.
    public func store<R: ServableReducer>(_ name: String, of type: R.Type = R.self) -> RemoteStore<R> {
        RemoteStore(server: self, name: name)
    }

    /// Ends the connection: actions still waiting fail with ``ClientError/closed``, every store's streams finish,
    /// the WebSocket is closed (1000) and the event loop thread ends. Returns when it has.
    public func close() async {
        let closed = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let first = closing.withLock { closing -> Bool in
                guard !closing else { return false }
                closing = true
                loop.execute { [connection] in connection.close { continuation.resume(returning: true) } }
                return true
            }
            if !first { continuation.resume(returning: false) }
        }
        guard closed else { return }
        let eventLoop = loop
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                eventLoop.stop()
                continuation.resume()
            }
        }
    }
}
