import Foundation
import SQLite
import Testing

/// The wrapper on real database files: statements, bindings, columns, errors, the statement cache and backup.
@Suite struct ConnectionTests {
    @Test func roundTripsEveryBoundType() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let connection = try Connection(path: directory.file("a.db"), readOnly: false)
        try connection.execute("CREATE TABLE t(i INTEGER, d REAL, s TEXT, b BLOB, n TEXT)")
        let insert = try connection.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
        try insert.bind(1, Int64.min)
        try insert.bind(2, 2.5)
        try insert.bind(3, "héllo \u{1F600}")
        try insert.bind(4, [0, 1, 255], as: .blob)
        try insert.bind(5, nil, as: .text)
        try insert.run()
        #expect(connection.changes == 1)
        #expect(connection.lastInsertRowID == 1)
        let select = try connection.prepare("SELECT i, d, s, b, n, typeof(s), typeof(b) FROM t")
        #expect(try select.step())
        #expect(select.int64(0) == Int64.min)
        #expect(select.double(1) == 2.5)
        #expect(select.string(2) == "héllo \u{1F600}")
        #expect(select.text(2) == Array("héllo \u{1F600}".utf8))
        #expect(select.blob(3) == [0, 1, 255])
        #expect(select.isNull(4))
        #expect(!select.isNull(0))
        #expect(select.string(5) == "text")
        #expect(select.string(6) == "blob")
        #expect(try !select.step())
        select.reset()
    }

    @Test func bytesBoundAsTextAreText() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let connection = try Connection(path: directory.file("a.db"), readOnly: false)
        try connection.execute("CREATE TABLE t(s TEXT)")
        let insert = try connection.prepare("INSERT INTO t VALUES (?)")
        try insert.bind(1, Array(#"{"type":"increment"}"#.utf8), as: .text)
        try insert.run()
        try insert.bind(1, [], as: .text)
        try insert.run()
        let select = try connection.prepare("SELECT typeof(s), s FROM t ORDER BY rowid")
        defer { select.reset() }
        #expect(try select.step())
        #expect(select.string(0) == "text")
        #expect(select.string(1) == #"{"type":"increment"}"#)
        #expect(try select.step())
        #expect(select.string(0) == "text", "empty bytes are an empty string, not NULL")
        #expect(select.text(1) == [])
    }

    @Test func preparedStatementsAreCachedBySQLText() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let connection = try Connection(path: directory.file("a.db"), readOnly: false)
        let first = try connection.prepare("SELECT 1")
        let second = try connection.prepare("SELECT 1")
        let other = try connection.prepare("SELECT 2")
        #expect(first === second)
        #expect(first !== other)
    }

    @Test func pragmaReturnsItsValue() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let connection = try Connection(path: directory.file("a.db"), readOnly: false)
        #expect(try connection.pragma("journal_mode = WAL") == "wal")
        try connection.pragma("user_version = 7")
        #expect(try connection.pragma("user_version") == "7")
    }

    @Test func errorsCarryTheCodeMessageAndOperation() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let connection = try Connection(path: directory.file("a.db"), readOnly: false)
        try connection.execute("CREATE TABLE t(k INTEGER PRIMARY KEY)")
        try connection.execute("INSERT INTO t VALUES (1)")
        let insert = try connection.prepare("INSERT INTO t VALUES (1)")
        let error = try #require(throws: SQLiteError.self) { try insert.run() }
        #expect(error.code == 19)  // SQLITE_CONSTRAINT
        #expect(error.extendedCode == 1555)  // SQLITE_CONSTRAINT_PRIMARYKEY
        #expect(error.operation == "INSERT INTO t VALUES (1)")
        #expect(error.message.contains("UNIQUE constraint failed"))
        #expect(error.description.contains("INSERT INTO t VALUES (1)"))
        let syntax = try #require(throws: SQLiteError.self) { try connection.prepare("SELEKT") }
        #expect(syntax.operation == "prepare SELEKT")
        let closed = try Connection(path: directory.file("b.db"), readOnly: false)
        closed.close()
        #expect(throws: SQLiteError.self) { try closed.execute("SELECT 1") }
    }

    @Test func readOnlyConnectionsCannotWriteOrCreate() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(throws: SQLiteError.self) { try Connection(path: directory.file("missing.db"), readOnly: true) }
        let writer = try Connection(path: directory.file("a.db"), readOnly: false)
        try writer.execute("CREATE TABLE t(x)")
        let reader = try Connection(path: directory.file("a.db"), readOnly: true)
        let error = try #require(throws: SQLiteError.self) { try reader.execute("INSERT INTO t VALUES (1)") }
        #expect(error.isReadOnly)
    }

    @Test func maxPageCountMakesWritesFailFull() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let connection = try Connection(path: directory.file("a.db"), readOnly: false)
        try connection.execute("CREATE TABLE t(x)")
        try connection.pragma("max_page_count = 4")
        let insert = try connection.prepare("INSERT INTO t VALUES (?)")
        let error = try #require(throws: SQLiteError.self) {
            for _ in 0..<100 {
                try insert.bind(1, [UInt8](repeating: 65, count: 1_000), as: .text)
                try insert.run()
            }
        }
        #expect(error.isFull)
        #expect(!error.isIOError && !error.isBusy && !error.isReadOnly)
    }

    @Test func backupCopiesACommittedSnapshotWhileAnotherConnectionWrites() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let writer = try Connection(path: directory.file("a.db"), readOnly: false)
        try writer.pragma("journal_mode = WAL")
        try writer.execute("CREATE TABLE t(x TEXT)")
        let insert = try writer.prepare("INSERT INTO t VALUES (?)")
        for index in 0..<2_000 {
            try insert.bind(1, "row \(index) " + String(repeating: "x", count: 100))
            try insert.run()
        }
        // An open write transaction in the writer does not stop the backup (WAL: readers see the last commit).
        try writer.execute("BEGIN IMMEDIATE; INSERT INTO t VALUES ('uncommitted')")
        let source = try Connection(path: directory.file("a.db"), readOnly: true)
        try source.backup(to: directory.file("copy.db"), pagesPerStep: -1)
        try writer.execute("COMMIT")
        let copy = try Connection(path: directory.file("copy.db"), readOnly: true)
        let count = try copy.prepare("SELECT count(*) FROM t")
        defer { count.reset() }
        #expect(try count.step())
        #expect(count.int64(0) == 2_000)
    }

    @Test func backupInSmallStepsCompletes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try Connection(path: directory.file("a.db"), readOnly: false)
        try source.execute("CREATE TABLE t(x TEXT)")
        try source.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) "
                           + "INSERT INTO t SELECT printf('%0100d', i) FROM n")
        try source.backup(to: directory.file("copy.db"), pagesPerStep: 8)
        let copy = try Connection(path: directory.file("copy.db"), readOnly: true)
        let count = try copy.prepare("SELECT count(*), max(x) FROM t")
        defer { count.reset() }
        #expect(try count.step())
        #expect(count.int64(0) == 5_000)
    }
}
