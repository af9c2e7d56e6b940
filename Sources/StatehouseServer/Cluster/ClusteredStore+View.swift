import Statehouse
import StatehouseCore
import JSONCoding
import Redis

/// A follower's view of the store: the committed rows, applied through the reducer (no effect runs), in version
/// order, each new state streamed to this node's subscribers, and the owner's events passed on to them. A gap (a message lost while the subscriber was
/// reconnecting) is filled from the stream (`XRANGE` by version).
extension ClusteredStore {
    func changesPublished(_ payload: [UInt8]) {
        // The owner's own commits come back too: it streams them already, so it does not even decode them.
        if case .owning = machine.withLock({ $0.role }) { return }
        guard let changes = ClusterChanges(payload) else {
            if let event = ClusterEvent(payload) { fanout.eventEmitted(event.fsa) }
            return
        }
        let gap = machine.withLock { machine -> Bool in
            switch machine.role {
            case .following, .acquiring:
                let before = machine.view.version
                let gap = apply(changes.rows, to: &machine)
                // The writer of rows that advanced the view owns the store (or did a moment ago): forward to it.
                if machine.view.version > before, !machine.isGone(changes.lease) { machine.owner = changes.lease }
                return gap
            case .owning, .steppingDown: return false  // the store streams its own commits; a step-down reads the stream
            }
        }
        if gap { resync() }
    }

    /// Applies the rows past the view's version; true when they do not continue it (a gap: read the stream).
    func apply(_ rows: [ClusterRow], to machine: inout Machine) -> Bool {
        apply(rows.lazy.map { JournalRow(version: $0.version, origin: $0.origin, action: $0.action, timeMs: 0) }, to: &machine)
    }

    func apply(_ rows: some Sequence<JournalRow>, to machine: inout Machine) -> Bool {
        let decoder = JSONValueDecoder()
        let reducer = R()
        for row in rows where row.version > machine.view.version {
            guard row.version - 1 == machine.view.version else { return true }
            guard !machine.stuck else { return false }
            var state = machine.view.state
            do {
                try TypedStore<R>.apply(row.origin, row.action, version: row.version, to: &state, reducer: reducer, decoder: decoder, store: name)
            } catch {
                machine.stuck = true
                logger.error("cluster node \(node.name): cannot follow store \(name): \(error)")
                return false
            }
            machine.view = Snapshot(version: row.version, state: state)
            fanout.stateChanged(version: row.version, json: TypedStore<R>.encode(state))
        }
        return false
    }

    /// Reads the stream past the view (and the snapshot, when the stream no longer holds the next version).
    func resync() {
        let from = machine.withLock { machine -> UInt64? in
            guard case .following = machine.role, !machine.catchingUp, machine.view.version < .max else { return nil }
            machine.catchingUp = true
            return machine.view.version
        }
        guard let from else { return }
        let keys = self.keys
        node.control.submit({
            [
                [Array("XRANGE".utf8), keys.log, Array("\(from + 1)-0".utf8), Array("+".utf8)],
                [Array("HMGET".utf8), keys.snapshot, Array("version".utf8), Array("state".utf8)],
            ]
        }) { [self] result in
            machine.withLock { machine in
                machine.catchingUp = false
                guard case .success(let replies) = result, case .following = machine.role else { return }
                var rows = Self.rows(replies[0])
                if let first = rows.first, first.version > machine.view.version, first.version - machine.view.version > 1,
                    let snapshot = Self.snapshot(replies[1]), snapshot.version >= first.version - 1
                {
                    // Trimmed past the view: start again from the snapshot.
                    let decoder = JSONValueDecoder()
                    guard let state = try? decoder.decode(R.State.self, from: snapshot.state) else { return }
                    machine.view = Snapshot(version: snapshot.version, state: state)
                    fanout.stateChanged(version: snapshot.version, json: TypedStore<R>.encode(state))
                    rows = rows.filter { $0.version > snapshot.version }
                }
                _ = apply(rows, to: &machine)
            }
        }
    }
}
