internal import CSQLite

/// One SQLite database connection (`sqlite3 *`), opened with `SQLITE_OPEN_NOMUTEX` and extended result codes.
///
/// Prepared statements are cached by their SQL text (``prepare(_:)``), so a hot statement is compiled once.
///
/// Lifecycle: `open` → `closed` (``close()``, or `deinit`); calls on a closed connection throw `SQLITE_MISUSE`.
///
/// ## Thread safety
/// One thread at a time (the connection is opened without SQLite's own mutex). It is `@unchecked Sendable` so it can
/// be handed between threads; the owner serialises every use: `StoreDatabase` confines its write connection to its
/// writer thread and lends each read connection to one caller at a time from a locked pool.
public final class Connection: @unchecked Sendable {
    /// The file as given to ``init(path:readOnly:)``.
    public let path: String
    /// Whether the connection was opened with `SQLITE_OPEN_READONLY`.
    public let readOnly: Bool
    private var state: State
    private var statements: [String: Statement] = [:]

    private enum State {
        case open(OpaquePointer)
        case closed
    }

    /// Opens `path` (read-write and created when missing, or read-only).
    /// - Throws: `SQLiteError` with operation `"open <path>"` (e.g. `SQLITE_CANTOPEN` for a missing read-only file).
    public init(path: String, readOnly: Bool) throws(SQLiteError) {
        self.path = path
        self.readOnly = readOnly
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_NOMUTEX | (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            let error = SQLiteError(connection: handle, code: rc, operation: "open \(path)")
            sqlite3_close_v2(handle)
            throw error
        }
        sqlite3_extended_result_codes(handle, 1)
        state = .open(handle)
    }

    deinit { close() }

    /// The `sqlite3 *`, or `SQLITE_MISUSE` once closed.
    func handle(_ operation: @autoclosure () -> String) throws(SQLiteError) -> OpaquePointer {
        guard case .open(let handle) = state else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "the connection is closed", operation: operation())
        }
        return handle
    }

    /// Finalizes every cached statement and closes the connection. Idempotent.
    public func close() {
        guard case .open(let handle) = state else { return }
        for statement in statements.values { statement.finalize() }
        statements.removeAll()
        sqlite3_close_v2(handle)
        state = .closed
    }

    /// Runs one or more `;`-separated statements that return no rows of interest (`sqlite3_exec`).
    /// - Throws: `SQLiteError` whose operation is `sql`.
    public func execute(_ sql: String) throws(SQLiteError) {
        let handle = try handle(sql)
        var errorText: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorText)
        if rc != SQLITE_OK {
            let message = errorText.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(errorText)
            throw SQLiteError(extendedCode: sqlite3_extended_errcode(handle), message: message, operation: sql)
        }
    }

    /// A prepared statement for `sql`, reset with its bindings cleared; the same object for the same text until
    /// ``close()``. Use it on this connection's thread only, and `reset()` it when done reading so it ends its read.
    /// - Throws: `SQLiteError` with operation `"prepare <sql>"` (a syntax error, an unknown table).
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        if let cached = statements[sql] {
            cached.reset()
            cached.clearBindings()
            return cached
        }
        let handle = try handle("prepare \(sql)")
        var raw: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard rc == SQLITE_OK, let raw else {
            throw SQLiteError(connection: handle, code: rc, operation: "prepare \(sql)")
        }
        let statement = Statement(handle: raw, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs `PRAGMA <text>` and returns the first column of its first row as text, or nil when it returns no row
    /// (e.g. `pragma("journal_mode = WAL")` → `"wal"`, `pragma("user_version")` → `"1"`).
    /// - Throws: `SQLiteError` whose operation is `"PRAGMA <text>"`.
    @discardableResult
    public func pragma(_ text: String) throws(SQLiteError) -> String? {
        let statement = try prepare("PRAGMA \(text)")
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return statement.isNull(0) ? nil : statement.string(0)
    }

    /// The rowid of the latest successful `INSERT` on this connection (`sqlite3_last_insert_rowid`), 0 when closed.
    public var lastInsertRowID: Int64 {
        guard case .open(let handle) = state else { return 0 }
        return sqlite3_last_insert_rowid(handle)
    }

    /// Rows changed by the latest `INSERT`, `UPDATE` or `DELETE` (`sqlite3_changes64`), 0 when closed.
    public var changes: Int {
        guard case .open(let handle) = state else { return 0 }
        return Int(sqlite3_changes64(handle))
    }

    /// Whether the connection is inside a transaction (`!sqlite3_get_autocommit`).
    public var isInTransaction: Bool {
        guard case .open(let handle) = state else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }
}
