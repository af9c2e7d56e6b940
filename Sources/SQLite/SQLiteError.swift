internal import CSQLite

/// A failed SQLite call: its result code, SQLite's message and what we were doing.
///
/// `code` is the primary result code (the low 8 bits, e.g. `SQLITE_FULL` = 13); `extendedCode` the extended one
/// (e.g. `SQLITE_IOERR_FSYNC` = 1034). See <https://www.sqlite.org/rescode.html>.
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The primary result code (`extendedCode & 0xFF`).
    public var code: Int32 { extendedCode & 0xFF }
    /// The extended result code SQLite returned.
    public let extendedCode: Int32
    /// `sqlite3_errmsg` at the time of the failure (or `sqlite3_errstr` of the code when there was no connection).
    public let message: String
    /// What we were doing: `"open /path"`, `"COMMIT"`, the SQL text of a statement, `"backup step"`.
    public let operation: String

    public init(extendedCode: Int32, message: String, operation: String) {
        self.extendedCode = extendedCode
        self.message = message
        self.operation = operation
    }

    /// The error of `handle`'s last call (`sqlite3_extended_errcode`, `sqlite3_errmsg`).
    init(connection handle: OpaquePointer?, code: Int32, operation: String) {
        let message: String
        if let handle, let text = sqlite3_errmsg(handle) {
            message = String(cString: text)
        } else {
            message = String(cString: sqlite3_errstr(code))
        }
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? code
        // sqlite3_extended_errcode is the connection's latest error; prefer it only when it agrees with `code`.
        self.init(extendedCode: extended & 0xFF == code & 0xFF ? extended : code, message: message, operation: operation)
    }

    /// `SQLITE_FULL`: the disk is full or the database reached `PRAGMA max_page_count`.
    public var isFull: Bool { code == SQLITE_FULL }
    /// `SQLITE_READONLY`: the file, its directory or the connection does not allow writing.
    public var isReadOnly: Bool { code == SQLITE_READONLY }
    /// `SQLITE_IOERR`: the operating system reported an I/O error (a failed `write`, `fsync`, ...).
    public var isIOError: Bool { code == SQLITE_IOERR }
    /// `SQLITE_BUSY` or `SQLITE_LOCKED`: another connection holds a lock we need.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    /// `"<operation>: <message> (SQLite code <extended>)"`.
    public var description: String { "\(operation): \(message) (SQLite code \(extendedCode))" }
}
