import Foundation
import SQLite

/// A storage failure: which database, what we were doing, and SQLite's error (or the system's, for files and locks).
///
/// `description` is one line: `storage <path>: <operation> failed: <message>`.
struct StorageError: Error, CustomStringConvertible, Sendable {
    /// The database file as configured.
    let path: String
    /// What we were doing: `"open"`, `"lock /data/db.lock"`, `"write journal"`, `"COMMIT"`, `"backup to /x"`, ...
    let operation: String
    /// SQLite's error, nil for failures outside SQLite (see `message`).
    let sqlite: SQLiteError?
    /// SQLite's message with its code, or the system error text.
    let message: String
    /// The `errno` of a failure outside SQLite, nil otherwise.
    let systemError: Int32?

    init(path: String, operation: String, sqlite: SQLiteError) {
        self.path = path
        self.operation = operation
        self.sqlite = sqlite
        message = "\(sqlite.message) (SQLite code \(sqlite.extendedCode))"
        systemError = nil
    }

    init(path: String, operation: String, message: String, errno: Int32? = nil) {
        self.path = path
        self.operation = operation
        sqlite = nil
        self.message = message
        systemError = errno
    }

    /// The disk or the configured `maxBytes` is full (`SQLITE_FULL` or `ENOSPC`): HTTP 507.
    var isFull: Bool { sqlite?.isFull ?? (systemError == ENOSPC) }

    var description: String { "storage \(path): \(operation) failed: \(message)" }
}
