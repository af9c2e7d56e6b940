import Locking

/// The connection status, readable from any thread, and the streams that watch it.
///
/// ## Thread safety
/// Thread-safe: its state is behind a `Locked`; ``publish(_:)`` is called on the connection's loop thread.
final class StatusBoard: Sendable {
    private struct Board {
        var status: ConnectionStatus = .connecting
        var watchers: [Int: AsyncStream<ConnectionStatus>.Continuation] = [:]
        var nextWatcher = 0
    }
    private let board = Locked(Board())

    var status: ConnectionStatus { board.withLock { $0.status } }

    func publish(_ status: ConnectionStatus) {
        // Yielded under the lock, so every watcher sees the changes in order; finished outside it, because finishing
        // runs the stream's `onTermination`, which takes the lock.
        let finished = board.withLock { board -> [AsyncStream<ConnectionStatus>.Continuation] in
            board.status = status
            for watcher in board.watchers.values { watcher.yield(status) }
            guard status == .closed else { return [] }
            defer { board.watchers.removeAll() }
            return Array(board.watchers.values)
        }
        for watcher in finished { watcher.finish() }
    }

    /// The current status, then each change; finishes after `.closed`. Keeps every change (they are few).
    func stream() -> AsyncStream<ConnectionStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: ConnectionStatus.self)
        let id = board.withLock { board -> Int in
            continuation.yield(board.status)
            if board.status == .closed {
                continuation.finish()
                return -1
            }
            board.nextWatcher += 1
            board.watchers[board.nextWatcher] = continuation
            return board.nextWatcher
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.board.withLock { $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }
}
