internal import CSQLite

extension Connection {
    /// Copies this database into `destinationPath` with SQLite's online backup API (`sqlite3_backup_init`, `_step`,
    /// `_finish`; <https://www.sqlite.org/backup.html>), `pagesPerStep` pages at a time (-1: all in one step, one
    /// read transaction, which a busy WAL source needs: a write by another connection between steps restarts the
    /// copy). The destination file is created or overwritten; the copy is a consistent snapshot of one commit.
    ///
    /// A step that meets `SQLITE_BUSY`/`SQLITE_LOCKED` (a writer in another process holding a lock) is retried after
    /// 10 ms, for at most `busyTimeoutMs` in all.
    /// - Throws: `SQLiteError` (operation `"open <dest>"`, `"backup init"`, `"backup step"`), including `SQLITE_BUSY`
    ///   when the locks stayed held past the bound.
    public func backup(to destinationPath: String, pagesPerStep: Int32 = 256, busyTimeoutMs: Int32 = 5_000)
        throws(SQLiteError)
    {
        let source = try handle("backup to \(destinationPath)")
        let destination = try Connection(path: destinationPath, readOnly: false)
        defer { destination.close() }
        let target = try destination.handle("backup to \(destinationPath)")
        guard let backup = sqlite3_backup_init(target, "main", source, "main") else {
            throw SQLiteError(connection: target, code: sqlite3_errcode(target), operation: "backup init")
        }
        var waitedMs: Int32 = 0
        while true {
            let rc = sqlite3_backup_step(backup, pagesPerStep)
            let primary = rc & 0xFF
            if primary == SQLITE_DONE { break }
            if primary == SQLITE_OK { continue }
            if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) && waitedMs < busyTimeoutMs {
                sqlite3_sleep(10)
                waitedMs += 10
                continue
            }
            sqlite3_backup_finish(backup)
            throw SQLiteError(extendedCode: rc, message: String(cString: sqlite3_errstr(rc)), operation: "backup step")
        }
        let rc = sqlite3_backup_finish(backup)
        guard rc == SQLITE_OK else { throw SQLiteError(connection: target, code: rc, operation: "backup finish") }
    }
}
