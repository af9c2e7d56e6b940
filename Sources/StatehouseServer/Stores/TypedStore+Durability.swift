import JSONCoding
import JSON
import StatehouseCore

/// A journal row or snapshot the store's reducer cannot read back: recovery stops (the server does not start).
struct RecoveryError: Error, CustomStringConvertible, Sendable {
    let store: String
    let version: UInt64
    let problem: String

    var description: String { "store \(store), version \(version): \(problem)" }
}

/// A durable store's journal and its replay: what is written per batch, and how a state is rebuilt from a snapshot
/// and the actions after it.
///
/// Actions are journaled as Swift's synthesized `Codable` writes them (`{"add":{"_0":5}}`: what the reducer's own
/// `Decodable` reads back without the FSA mapping); `/log` shows them as Flux Standard Actions. Encoding happens on
/// the database's writer thread, off the store's executor.
extension TypedStore {
    /// The journal of a store written to `persistence`: each batch becomes one `append`, gated in `commit` mode.
    static func journal(_ persistence: StorePersistence) -> StoreJournal<R.Action, R.State> {
        let database = persistence.durability.database
        let storeID = persistence.storeID
        return StoreJournal(gatesOutput: persistence.durability.gatesOutput) { record, done in
            database.append(JournalBatch(storeID: storeID) { encoded(record) }) { error in done(error) }
        }
    }

    /// The rows, keys and snapshot of one batch, as JSON.
    static func encoded(_ record: JournalRecord<R.Action, R.State>) -> EncodedBatch {
        let now = StorageClock.nowMs
        let encoder = JSONBytesEncoder()
        let rows = record.changes.map { change -> JournalRow in
            switch change.cause {
            case .action(let action, let fromEffect):
                let json = (try? encoder.encode(action)) ?? Array("null".utf8)
                return JournalRow(version: change.version, origin: fromEffect ? .effect : .external, action: json, timeMs: now)
            case .reset(let state):
                return JournalRow(version: change.version, origin: .reset, action: encode(state), timeMs: now)
            }
        }
        let keys = record.noted.compactMap { noted -> StoredKey? in
            guard let note = noted.note as? IdempotencyNote else { return nil }
            return StoredKey(
                key: note.key, fingerprint: note.fingerprint, version: noted.snapshot.version,
                state: encode(noted.snapshot.state), expiresMs: note.expiresMs)
        }
        let state = record.snapshot.state
        return EncodedBatch(
            rows: rows, keys: keys, newestVersion: record.snapshot.version, forceSnapshot: record.endsWithReset,
            snapshotState: { encode(state) })
    }

    /// The state `rows` lead to from `base`, through the reducer (effects are not run); `each` sees every version on
    /// the way, the base's first.
    /// - Throws: ``RecoveryError`` naming the version of a snapshot or action that does not decode, or of a gap.
    static func replay(
        _ base: StoredSnapshot, _ rows: some Sequence<JournalRow>, store: String,
        each: (Snapshot<R.State>) -> Void = { _ in }
    ) throws(RecoveryError) -> Snapshot<R.State> {
        let decoder = JSONValueDecoder()
        var state: R.State
        do {
            state = try decoder.decode(R.State.self, from: base.state)
        } catch {
            throw RecoveryError(store: store, version: base.version, problem: "its snapshot is not a valid \(R.self) state (\(error))")
        }
        var version = base.version
        each(Snapshot(version: version, state: state))
        let reducer = R()
        for row in rows {
            guard version < .max, row.version == version + 1 else {
                throw RecoveryError(store: store, version: row.version, problem: "the journal skips from version \(version)")
            }
            try apply(row.origin, row.action, version: row.version, to: &state, reducer: reducer, decoder: decoder, store: store)
            version = row.version
            each(Snapshot(version: version, state: state))
        }
        return Snapshot(version: version, state: state)
    }

    /// The state `rows` lead to from `base` (``replay(_:_:store:each:)``), and a fan-out in `epoch` whose history holds
    /// the last `historySize` versions on the way: how a durable store is recovered from its database and how a cluster
    /// node builds its view of a store from Redis.
    /// - Throws: ``RecoveryError`` as ``replay(_:_:store:each:)``.
    static func recovered(
        name: String, base: StoredSnapshot, rows: [JournalRow], historySize: Int, epoch: String
    ) throws(RecoveryError) -> (snapshot: Snapshot<R.State>, fanout: StoreFanout) {
        let newest = rows.last?.version ?? base.version
        let keepFrom = newest > UInt64(historySize) ? newest - UInt64(historySize) : 0
        var versions: [(version: UInt64, json: [UInt8])] = []
        let snapshot = try replay(base, rows, store: name) { snapshot in
            if snapshot.version >= keepFrom { versions.append((snapshot.version, encode(snapshot.state))) }
        }
        let fanout = StoreFanout(
            storeName: name, historySize: historySize, epoch: epoch, version: versions[0].version, initialJSON: versions[0].json)
        for (version, json) in versions.dropFirst() { fanout.stateChanged(version: version, json: json) }
        return (snapshot, fanout)
    }

    /// Applies one journaled change to `state`: a reset's state, or an action through the reducer (its effect is not
    /// run). Recovery and a cluster node's view of a store it does not own both do this.
    /// - Throws: ``RecoveryError`` when the action or state does not decode.
    static func apply(
        _ origin: JournalOrigin, _ json: [UInt8], version: UInt64, to state: inout R.State, reducer: R,
        decoder: JSONValueDecoder, store: String
    ) throws(RecoveryError) {
        if origin == .reset {
            do {
                state = try decoder.decode(R.State.self, from: json)
            } catch {
                throw RecoveryError(store: store, version: version, problem: "its reset state does not decode (\(error))")
            }
            return
        }
        let action: R.Action
        do {
            action = try decoder.decode(R.Action.self, from: json)
        } catch {
            throw RecoveryError(store: store, version: version, problem: "its action is not a valid \(R.self) action (\(error))")
        }
        _ = reducer.reduce(state: &state, action: action)
    }

    /// The state at `version` as JSON: from the history when it holds it, else rebuilt from the journal.
    func state(at version: UInt64) throws -> [UInt8]? {
        if let json = fanout.json(at: version) { return json }
        guard let persistence,
            let inputs = try persistence.durability.database.stateInputs(storeID: persistence.storeID, at: version)
        else { return nil }
        let snapshot = try Self.replay(inputs.base, inputs.rows, store: name)
        guard snapshot.version == version else { return nil }
        return Self.encode(snapshot.state)
    }
}

extension TypedStore {
    /// `statehouse replay`: the journal of `stored` re-reduced from its oldest snapshot to `target` (nil: newest),
    /// checking every later snapshot on the way with `verify` (states compared as JSON values).
    static func replayJournal(
        _ database: StoreDatabase, _ stored: StoredStore, to target: UInt64?, verify: Bool
    ) throws -> StorageTools.ReplayReport {
        let snapshots = try database.snapshots(storeID: stored.id)
        guard let base = snapshots.first else {
            throw RecoveryError(store: stored.name, version: 0, problem: "no snapshot is kept")
        }
        let byVersion = Dictionary(snapshots.map { ($0.version, $0.state) }, uniquingKeysWith: { first, _ in first })
        let through = target ?? .max
        var rows: [JournalRow] = []
        var since = base.version
        while true {  // the journal in pages of 10,000 rows, up to `through`
            let page = try database.log(storeID: stored.id, since: since, limit: 10_000)
            rows += page.prefix { $0.version <= through }
            guard let last = page.last, page.count == 10_000, last.version < through else { break }
            since = last.version
        }
        var verified = 0
        var mismatch: UInt64?
        let final = try replay(base, rows, store: stored.name) { snapshot in
            guard verify, mismatch == nil, snapshot.version > base.version, let kept = byVersion[snapshot.version] else { return }
            verified += 1
            if (try? JSONValue(parsing: encode(snapshot.state))) != (try? JSONValue(parsing: kept)) { mismatch = snapshot.version }
        }
        if target == nil, let newest = snapshots.last?.version, final.version < newest {
            throw RecoveryError(
                store: stored.name, version: newest,
                problem: "a snapshot is kept at this version but the journal ends at version \(final.version)")
        }
        if let target, final.version != target {
            let kept = target < base.version
                ? "the oldest snapshot kept is at version \(base.version)" : "the newest version is \(final.version)"
            throw RecoveryError(store: stored.name, version: target, problem: "is not kept (\(kept))")
        }
        return StorageTools.ReplayReport(
            store: stored.name, version: final.version, state: encode(final.state), fromVersion: base.version,
            actions: rows.count, verified: verified, mismatch: mismatch)
    }
}
