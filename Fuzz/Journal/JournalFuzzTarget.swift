// libFuzzer target for a durable store's recovery from a damaged or hand-edited database, linked with
// StatehouseServer and DemoReducers by scripts/fuzz.
//
// The process opens one real database (StoreDatabase.open, so the schema and pragmas are the server's) in a temporary
// directory. Each input replaces the rows of store 1 ("fuzz") through a raw SQLite connection, in one transaction,
// then runs what a server start runs for a stored store (ReducerCatalog.storedStores, persistence(for:...): the
// snapshot, journal and idempotency keys read back; build: the replay through the reducer, the history, the keys
// restored into the cache), then what `statehouse replay --verify` runs, and renders the journal as `/log` does.
//
// Input: byte 0 picks the reducer (bit 0: TodoList or Counter), the history size (bits 1-2: 0, 1, 3 or 100) and who
// made the store (bit 3: configuration or PUT); the rest is lines, fields separated by one space, the last field
// the rest of the line. Numbers are bound as TEXT, so SQLite's column affinity stores what is not an integer as
// TEXT or REAL, as a hand edit would. An uppercase kind binds the JSON as a BLOB instead of TEXT.
// - `s VERSION JSON`: a snapshot;
// - `j VERSION ORIGIN TIME JSON`: a journal row;
// - `k KEY FINGERPRINT VERSION EXPIRES JSON`: an idempotency key;
// - `r REDUCER EPOCH INITIAL`: the stores row's reducer, epoch and initial state (empty: NULL); default: the chosen
//   reducer, epoch "e", NULL.
//
// Checked:
// - nothing traps (versions near UInt64.max or stored as negative, gaps, unknown origins, non-UTF-8 or non-JSON
//   text, huge numbers in states);
// - a failure is the documented error (ConfigurationError from the start, RecoveryError or StorageError from the
//   replay tool), on one line;
// - a recovered store is at the newest integer version the database holds for it (journal or snapshot), its state
//   JSON decodes as the reducer's state, and that state re-encodes to JSON that decodes back equal;
// - the replay tool, when it succeeds, ends at the same version with the same state.

import Foundation
import SQLite
import JSON
import JSONCoding
import DemoReducers
import Statehouse
@testable import StatehouseServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournal(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let flags = data[0]
    let text = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let fixture = JournalFixture.shared
    if flags & 1 == 0 {
        fixture.check(TodoList.self, name: "TodoList", flags: flags, text: text)
    } else {
        fixture.check(Counter.self, name: "Counter", flags: flags, text: text)
    }
    return 0
}

/// Discards the store's log lines.
private struct Silent: LogHandler {
    func log(_ record: LogRecord) {}
}

/// The one database of the process and what writes and reads it.
private final class JournalFixture: @unchecked Sendable {
    static let shared = JournalFixture()

    let path: String
    let database: StoreDatabase
    let durability: StoreDurability
    let raw: Connection
    let logger = Logger(level: .error, handler: Silent())
    let catalog = ReducerCatalog().registering(TodoList.self).registering(Counter.self)

    private init() {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("statehouse-fuzz-journal-\(getpid())").path
        try? FileManager.default.removeItem(atPath: directory)
        path = directory + "/stores.sqlite"
        do {
            database = try StoreDatabase.open(StorageConfiguration(path: path), logger: logger)
            raw = try Connection(path: path, readOnly: false)
            try raw.pragma("busy_timeout = 5000")
            try raw.pragma("synchronous = OFF")  // the file is thrown away: no fsync per input
        } catch {
            fatalError("fuzz setup: \(error)")
        }
        durability = StoreDurability(database: database, logger: logger)
        atexit { try? FileManager.default.removeItem(atPath: JournalFixture.shared.path.dropLastComponent) }
    }

    /// Replaces store 1's rows with the input's, in one transaction.
    func write(_ lines: [[UInt8]], reducer: String, put: Bool) {
        do {
            try raw.execute("BEGIN IMMEDIATE")
            for table in ["stores", "journal", "snapshots", "idempotency"] { try raw.execute("DELETE FROM \(table)") }
            var store: (reducer: [UInt8], epoch: [UInt8], initial: [UInt8]?) = (Array(reducer.utf8), Array("e".utf8), nil)
            for line in lines {
                guard let kind = line.first else { continue }
                let blob = kind >= UInt8(ascii: "A") && kind <= UInt8(ascii: "Z")
                let storage: Statement.Storage = blob ? .blob : .text
                switch kind | 0x20 {
                case UInt8(ascii: "s"):
                    guard let f = fields(line, 2) else { continue }
                    let insert = try raw.prepare(
                        "INSERT OR REPLACE INTO snapshots(store_id, version, state, time_ms) VALUES (1, ?1, ?2, 0)")
                    try insert.bind(1, f[0], as: .text)
                    try insert.bind(2, f[1], as: storage)
                    try insert.run()
                case UInt8(ascii: "j"):
                    guard let f = fields(line, 4) else { continue }
                    let insert = try raw.prepare("""
                        INSERT OR REPLACE INTO journal(store_id, version, origin, time_ms, action) VALUES (1, ?1, ?2, ?3, ?4)
                        """)
                    for index in 0..<3 { try insert.bind(Int32(index + 1), f[index], as: .text) }
                    try insert.bind(4, f[3], as: storage)
                    try insert.run()
                case UInt8(ascii: "k"):
                    guard let f = fields(line, 5) else { continue }
                    let insert = try raw.prepare("""
                        INSERT OR REPLACE INTO idempotency(store_id, key, fingerprint, version, expires_ms, state)
                        VALUES (1, ?1, ?2, ?3, ?4, ?5)
                        """)
                    for index in 0..<4 { try insert.bind(Int32(index + 1), f[index], as: .text) }
                    try insert.bind(5, f[4], as: storage)
                    try insert.run()
                case UInt8(ascii: "r"):
                    guard let f = fields(line, 3) else { continue }
                    store = (f[0], f[1], f[2].isEmpty ? nil : f[2])
                default:
                    continue
                }
            }
            let insert = try raw.prepare("""
                INSERT INTO stores(id, name, reducer, initial_state, epoch, created_by, created_ms)
                VALUES (1, 'fuzz', ?1, ?2, ?3, ?4, 0)
                """)
            try insert.bind(1, store.reducer, as: .text)
            try insert.bind(2, store.initial, as: .text)
            try insert.bind(3, store.epoch, as: .text)
            try insert.bind(4, Int64(put ? 1 : 0))
            try insert.run()
            try raw.execute("COMMIT")
        } catch {
            fatalError("fuzz setup: cannot write the rows: \(error)")
        }
    }

    /// The newest version the database holds for store 1 that recovery can reach: integers 0...Int64.max only.
    func newestVersion() -> UInt64? {
        do {
            let select = try raw.prepare("""
                SELECT max(v) FROM (SELECT version AS v FROM journal WHERE store_id = 1
                    UNION ALL SELECT version FROM snapshots WHERE store_id = 1) WHERE typeof(v) = 'integer' AND v >= 0
                """)
            defer { select.reset() }
            guard try select.step(), !select.isNull(0) else { return nil }
            return UInt64(select.int64(0))
        } catch {
            fatalError("fuzz setup: \(error)")
        }
    }

    func check<R: ServableReducer>(_ type: R.Type, name: String, flags: UInt8, text: [UInt8]) {
        let historySize = [0, 1, 3, 100][Int(flags >> 1) & 3]
        let put = flags & 8 != 0
        write(text.split(separator: 0x0A, omittingEmptySubsequences: true).map(Array.init), reducer: name, put: put)
        let newest = newestVersion()

        // What a server start does with the stored store.
        var recovered: StateReply?
        let stored: StoredStore
        do {
            guard let found = try ReducerCatalog.storedStores(durability)["fuzz"] else {
                return fuzzCheck(false, "the stores row was not read back")
            }
            stored = found
        } catch {
            return fuzzCheck(false, "the stores table does not read: \(error)")
        }
        let declaration = ServerConfiguration.StoreDeclaration(
            name: stored.name, reducer: name, initialState: put ? stored.initialState : nil)
        do throws(ConfigurationError) {
            let persistence = try catalog.persistence(
                for: declaration, stored: stored, createdBy: put ? .put : .configuration, durability: durability,
                historySize: historySize, path: "fuzz.json", at: "stores[0]")
            fuzzCheck(persistence.1 != nil, "a stored store was not recovered")
            let hosted: HostedStore
            do throws(ReducerCatalog.BuildFailure) {
                hosted = try catalog.build(
                    declaration, historySize: historySize, executor: nil, persistence: persistence.0,
                    recovery: persistence.1, logger: logger)
            } catch {
                switch error {
                case .unknownReducer: fuzzCheck(false, "a registered reducer is unknown")
                case .invalidState(let problem): oneLine("invalid state", problem)
                case .unrecoverable(let problem): oneLine("recovery", "\(problem)")
                }
                return
            }
            let reply = hosted.read()
            recovered = reply
            fuzzCheck(reply.version == newest, "recovered at version \(reply.version), the newest is \(String(describing: newest))")
            checkState(R.self, reply.state, at: reply.version)
        } catch {
            oneLine("start", error.description)
        }

        // `statehouse replay --verify`, on the database as it is.
        if let replayer = catalog.replayers[stored.reducer] {
            do {
                let report = try replayer(database, stored, nil, true)
                if stored.reducer == name { checkState(R.self, report.state, at: report.version) }
                if let recovered, stored.reducer == name {
                    fuzzCheck(report.version == recovered.version,
                              "replay ends at \(report.version), recovery at \(recovered.version)")
                    let a = try? JSONValue(parsing: report.state), b = try? JSONValue(parsing: recovered.state)
                    fuzzCheck(a == b, "replay and recovery disagree on the state at \(report.version)")
                }
            } catch let error as RecoveryError {
                oneLine("replay", error.description)
            } catch let error as StorageError {
                oneLine("replay", error.description)
            } catch {
                fuzzCheck(false, "replay threw an undocumented error: \(error)")
            }
        }

        // `/log`: every row rendered.
        if let rows = try? database.log(storeID: 1, since: 0, limit: 1_000) {
            var out: [UInt8] = []
            for row in rows { JournalRendering.line(row, into: &out) }
        }
    }

    /// The state JSON decodes as `R.State`, and re-encodes to JSON that decodes back equal.
    private func checkState<R: ServableReducer>(_ type: R.Type, _ json: [UInt8], at version: UInt64) {
        let decoder = JSONValueDecoder()
        guard let state = try? decoder.decode(R.State.self, from: json) else {
            return fuzzCheck(false, "the state at \(version) does not decode: \(String(decoding: json, as: UTF8.self))")
        }
        let again = TypedStore<R>.encode(state)
        guard let back = try? decoder.decode(R.State.self, from: again) else {
            return fuzzCheck(false, "the re-encoded state does not decode: \(String(decoding: again, as: UTF8.self))")
        }
        fuzzCheck(TypedStore<R>.encode(back) == again, "the state changed on a round trip at \(version)")
    }

    private func oneLine(_ what: String, _ message: String) {
        fuzzCheck(!message.contains(where: \.isNewline), "a \(what) error is not one line: \(message)")
        fuzzCheck(!message.isEmpty, "a \(what) error says nothing")
    }
}

/// The first `count - 1` space-separated fields after the kind, and the rest of the line; nil when there are fewer.
private func fields(_ line: [UInt8], _ count: Int) -> [[UInt8]]? {
    var rest = line.dropFirst()
    guard rest.first == 0x20 else { return nil }
    rest = rest.dropFirst()
    var out: [[UInt8]] = []
    while out.count < count - 1 {
        guard let space = rest.firstIndex(of: 0x20) else { return nil }
        out.append(Array(rest[..<space]))
        rest = rest[(space + 1)...]
    }
    out.append(Array(rest))
    return out
}

extension String {
    fileprivate var dropLastComponent: String { (self as NSString).deletingLastPathComponent }
}
