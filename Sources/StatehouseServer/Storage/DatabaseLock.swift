import Foundation

/// An exclusive advisory `flock` on `<database>.lock`, held while a server has the database open for writing, so a
/// second server on the same file fails at start instead of interleaving its writes.
///
/// Lifecycle: `held` (after ``acquire(databasePath:)``) → `released` (``release()``). The kernel drops the lock
/// when the process dies, so a `kill -9` never leaves a stale lock behind.
///
/// ## Thread safety
/// Not shared: the database acquires it while opening and releases it once, after its writer thread stopped.
final class DatabaseLock: @unchecked Sendable {
    private var state: State

    private enum State {
        case held(fd: Int32)
        case released
    }

    private init(fd: Int32) { state = .held(fd: fd) }

    /// Opens (creating) `<databasePath>.lock` and takes `LOCK_EX | LOCK_NB` on it.
    /// - Throws: `StorageError` (operation `"lock <file>"`) when another process holds it, or the file cannot be
    ///   opened.
    static func acquire(databasePath: String) throws(StorageError) -> DatabaseLock {
        let lockPath = databasePath + ".lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            throw StorageError(path: databasePath, operation: "lock \(lockPath)",
                               message: String(cString: strerror(code)), errno: code)
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(fd)
            let message = code == EWOULDBLOCK
                ? "another statehouse server has this database open; stop it or configure another storage.path"
                : String(cString: strerror(code))
            throw StorageError(path: databasePath, operation: "lock \(lockPath)", message: message, errno: code)
        }
        return DatabaseLock(fd: fd)
    }

    /// Drops the lock (closing the descriptor). Idempotent.
    func release() {
        guard case .held(let fd) = state else { return }
        close(fd)  // closing the last descriptor of the open file releases the flock
        state = .released
    }

    deinit { release() }
}
