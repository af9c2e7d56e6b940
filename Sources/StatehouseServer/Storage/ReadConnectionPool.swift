import Synchronization
import SQLite
import Locking

/// Read-only connections to one database, lent to one caller at a time, so API and CLI reads never touch the
/// writer's connection and, in WAL mode, never wait for its transactions.
///
/// A caller takes an idle connection (or opens a new one), runs its reads, and gives it back; at most
/// ``idleLimit`` stay open while idle.
///
/// Lifecycle: `open` → `closed` (``close()``): a closed pool closes connections given back and refuses new reads.
///
/// ## Thread safety
/// Sendable: the idle list and the state are behind one lock; a lent connection is used by its borrower only.
final class ReadConnectionPool: Sendable {
    let path: String
    private let shared = Locked(Shared())
    private static let idleLimit = 4

    private struct Shared: Sendable {
        var idle: [Connection] = []
        var isClosed = false
    }

    init(path: String) { self.path = path }

    /// Runs `body` with a read connection.
    /// - Throws: `StorageError` with `operation` when opening the connection or `body` fails, or the pool is closed.
    func read<T>(_ operation: String, _ body: (Connection) throws(SQLiteError) -> T) throws(StorageError) -> T {
        let taken: (Connection?, closed: Bool) = shared.withLock { shared in
            (shared.idle.popLast(), shared.isClosed)
        }
        if taken.closed {
            throw StorageError(path: path, operation: operation, message: "the database is closed")
        }
        let connection: Connection
        do throws(SQLiteError) {
            if let idle = taken.0 { connection = idle } else { connection = try Self.openConnection(path) }
        } catch {
            throw StorageError(path: path, operation: operation, sqlite: error)
        }
        defer { giveBack(connection) }
        do {
            return try body(connection)
        } catch {
            throw StorageError(path: path, operation: operation, sqlite: error)
        }
    }

    private static func openConnection(_ path: String) throws(SQLiteError) -> Connection {
        let connection = try Connection(path: path, readOnly: true)
        try connection.pragma("busy_timeout = 5000")
        return connection
    }

    private func giveBack(_ connection: Connection) {
        let keep = shared.withLock { shared in
            guard !shared.isClosed, shared.idle.count < Self.idleLimit else { return false }
            shared.idle.append(connection)
            return true
        }
        if !keep { connection.close() }
    }

    /// Closes the idle connections; connections still lent are closed when given back.
    func close() {
        let idle = shared.withLock { shared in
            shared.isClosed = true
            defer { shared.idle.removeAll() }
            return shared.idle
        }
        for connection in idle { connection.close() }
    }
}
