import Foundation
import JSON
import Locking
public import Statehouse
public import StatehouseCore
import UVLoop

/// A store on a Statehouse server that feels like a local `Store`: typed by the reducer the server hosts it with,
/// its newest state at hand, actions sent and acknowledged, every new state observed in version order.
///
/// Made by ``RemoteServer/store(_:of:)``; it subscribes at once (`/ws` `subscribe`, `format: "patch"`). The state
/// arrives as a snapshot, then as RFC 6902 patches, each applied only to the version it was made from (a gap asks for
/// a snapshot instead: never a wrong state).
///
/// Versions: within one epoch (docs/protocol.md) the version never goes back. After a reconnect the store resumes
/// from the version it holds; the states the server went through meanwhile arrive as one patch, so observers see one
/// new state whose version may be several higher (the ones between are skipped, as for a slow consumer of a local
/// store). A server that lost the store's history (a store in memory after a restart) starts a new epoch: its
/// snapshot replaces the state, and its version may be lower.
///
/// ## Thread safety
/// Thread-safe: every member may be used from any thread or task.
public final class RemoteStore<R: ServableReducer>: Sendable {
    /// The store's name on the server.
    public let name: String
    /// The server it lives on (the connection it shares with the server's other stores).
    public let server: RemoteServer
    let view: StoreView<R>

    init(server: RemoteServer, name: String) {
        self.server = server
        self.name = name
        let view = StoreView<R>(name: name)
        self.view = view
        let accepted = server.onLoop { connection in
            let key = connection.subscribe(store: name, path: nil, sink: view)
            view.watchers.withLock { $0.key = key }
        }
        if !accepted { view.end(.closed) }
    }

    deinit { release() }

    /// The newest snapshot, or nil before the first one arrived.
    public var snapshot: Snapshot<R.State>? { view.watchers.withLock { $0.snapshot } }
    /// The newest state, or nil before the first snapshot arrived.
    public var state: R.State? { snapshot?.state }
    /// The newest version, or nil before the first snapshot arrived.
    public var version: UInt64? { snapshot?.version }
    /// The epoch of the newest snapshot (docs/protocol.md), or nil before the first one.
    public var epoch: String? { view.watchers.withLock { $0.epoch } }

    /// The newest snapshot, waiting for the first one if none arrived yet.
    /// - Throws: the server's refusal (``ClientError/server(code:message:status:)``: `store_not_found`,
    ///   `forbidden`, or the refusal of the connection itself: `unauthorized`, `origin_not_allowed`, a 404 of a wrong
    ///   path prefix — any 4xx but 408 and 429),
    ///   ``ClientError/decoding(_:)`` when the state is not `R.State`, ``ClientError/closed``. While the server is
    ///   unreachable it keeps waiting (cancelling the calling task does not end the wait: close the store).
    public func current() async throws(ClientError) -> Snapshot<R.State> {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let ready = view.watchers.withLock { watchers -> Result<Snapshot<R.State>, ClientError>? in
                    if let snapshot = watchers.snapshot { return .success(snapshot) }
                    if let failure = watchers.ending ?? watchers.decodingFailure { return .failure(failure) }
                    watchers.firstWaiters.append(continuation)
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } catch let error as ClientError {
            throw error
        } catch {
            throw .decoding("\(error)")
        }
    }

    /// The connection's status now (shared by every store of ``server``).
    public var status: ConnectionStatus { server.status }

    /// The connection's status now, then each change (``RemoteServer/statuses()``).
    public func connection() -> AsyncStream<ConnectionStatus> { server.statuses() }

    /// Stops watching the store: streams finish, observers are dropped, ``current()`` waiters get
    /// ``ClientError/closed``. Sends still work. Also done when the store is released.
    public func close() {
        release()
        view.end(.closed)
    }

    private func release() {
        let view = self.view
        _ = server.onLoop { connection in
            guard let key = view.watchers.withLock({ $0.key }) else { return }
            connection.unsubscribe(key: key)
        }
    }
}
