internal import CSQLite

/// A prepared statement (`sqlite3_stmt *`) owned by its ``Connection``'s cache.
///
/// Parameters are numbered from 1 (`?1`, or the position of `?`), columns from 0, as in SQLite's C API. Bound bytes
/// are copied by SQLite (`SQLITE_TRANSIENT`), so the caller's array may go away after the bind.
///
/// ## Thread safety
/// Confined to the thread that uses its connection (not Sendable).
public final class Statement {
    private var handle: OpaquePointer?
    /// The SQL text it was prepared from (the cache key, and the operation of its errors).
    public let sql: String

    /// How ``bind(_:_:as:)`` stores bytes: TEXT (UTF-8, readable in the `sqlite3` shell) or BLOB.
    public enum Storage: Sendable { case text, blob }

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    func finalize() {
        sqlite3_finalize(handle)
        handle = nil
    }

    private func check(_ rc: Int32, _ what: String) throws(SQLiteError) {
        guard rc != SQLITE_OK else { return }
        throw SQLiteError(connection: sqlite3_db_handle(handle), code: rc, operation: "\(what) \(sql)")
    }

    /// Binds a 64-bit integer to parameter `index` (1-based).
    public func bind(_ index: Int32, _ value: Int64) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value), "bind")
    }

    /// Binds a double to parameter `index` (1-based).
    public func bind(_ index: Int32, _ value: Double) throws(SQLiteError) {
        try check(sqlite3_bind_double(handle, index, value), "bind")
    }

    /// Binds UTF-8 text to parameter `index` (1-based).
    public func bind(_ index: Int32, _ value: String) throws(SQLiteError) {
        var value = value
        let rc = value.withUTF8 { bindBytes(index, UnsafeRawBufferPointer($0), as: .text) }
        try check(rc, "bind")
    }

    /// Binds bytes as TEXT (they should be UTF-8) or BLOB to parameter `index` (1-based); nil binds NULL.
    public func bind(_ index: Int32, _ bytes: [UInt8]?, as storage: Storage) throws(SQLiteError) {
        guard let bytes else { return try bindNull(index) }
        let rc = bytes.withUnsafeBytes { bindBytes(index, $0, as: storage) }
        try check(rc, "bind")
    }

    private func bindBytes(_ index: Int32, _ buffer: UnsafeRawBufferPointer, as storage: Storage) -> Int32 {
        let base = buffer.baseAddress ?? UnsafeRawPointer(emptyBytes)
        switch storage {
        case .text:
            return sqlite3_bind_text(handle, index, base.assumingMemoryBound(to: CChar.self), Int32(buffer.count),
                                     csqlite_transient())
        case .blob:
            return sqlite3_bind_blob(handle, index, base, Int32(buffer.count), csqlite_transient())
        }
    }

    /// Binds NULL to parameter `index` (1-based).
    public func bindNull(_ index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index), "bind")
    }

    /// Runs the statement to its next row: true when a row is ready for the `column…` readers, false when done.
    /// - Throws: `SQLiteError` whose operation is the SQL text (`SQLITE_FULL`, `SQLITE_CONSTRAINT_PRIMARYKEY`, ...).
    public func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(connection: sqlite3_db_handle(handle), code: rc, operation: sql)
        }
    }

    /// Steps a statement that returns no rows (`INSERT`, `UPDATE`, `DELETE`) to its end, then resets it.
    /// - Throws: `SQLiteError` whose operation is the SQL text.
    public func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    /// Rewinds the statement so it can run again (its bindings stay) and ends the read it may hold open.
    public func reset() { sqlite3_reset(handle) }

    /// Sets every parameter back to NULL.
    public func clearBindings() { sqlite3_clear_bindings(handle) }

    /// Column `index` (0-based) of the current row as a 64-bit integer (NULL reads as 0).
    public func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// Column `index` (0-based) of the current row as a double (NULL reads as 0).
    public func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// Whether column `index` (0-based) of the current row is NULL.
    public func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// Column `index` (0-based) as its UTF-8 text bytes: one copy out of SQLite's buffer (NULL reads as empty).
    public func text(_ index: Int32) -> [UInt8] {
        guard let text = sqlite3_column_text(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Array(UnsafeBufferPointer(start: text, count: count))
    }

    /// Column `index` (0-based) as a String (NULL reads as empty).
    public func string(_ index: Int32) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Column `index` (0-based) as BLOB bytes: one copy (NULL or empty reads as empty).
    public func blob(_ index: Int32) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}

/// A valid pointer for empty text or blobs (a NULL pointer would bind NULL instead of an empty value).
nonisolated(unsafe) private let emptyBytes: UnsafeMutablePointer<CChar> = {
    let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
    pointer.initialize(to: 0)
    return pointer
}()
