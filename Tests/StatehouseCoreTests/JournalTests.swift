import Foundation
import StatehouseCore
import StatehouseTestClients
import Testing
import Synchronization
import Locking

/// A journal whose writes the test ends by hand: each write waits in `pending` until `finish(_:)`.
final class HeldJournal<Action: Sendable, State: Sendable>: @unchecked Sendable {
    private let lock = Locked(())  // guards the vars below
    private var pending: [(JournalRecord<Action, State>, @Sendable ((any Error)?) -> Void)] = []
    private var written: [JournalRecord<Action, State>] = []

    func journal(gated: Bool = true) -> StoreJournal<Action, State> {
        StoreJournal(gatesOutput: gated) { record, done in
            self.lock.withLock { self.pending.append((record, done)) }
        }
    }

    var pendingCount: Int { lock.withLock { pending.count } }
    var records: [JournalRecord<Action, State>] { lock.withLock { written + pending.map(\.0) } }

    /// Ends the oldest pending write with `error` (nil: success).
    func finish(_ error: (any Error)? = nil) {
        let (record, done) = lock.withLock { pending.removeFirst() }
        if error == nil { lock.withLock { written.append(record) } }
        done(error)
    }
}

final class Note: Sendable {
    let key: String
    init(_ key: String) { self.key = key }
}

@Suite struct JournalTests {
    @Test func outputsWaitForTheBatchToBeWritten() async {
        let held = HeldJournal<Tally.Action, Tally.State>()
        let store = Store(reducer: Tally(), state: .init(), journal: held.journal())
        let seen = Recorder<UInt64>()
        _ = await store.observe { seen.append($0.version) }
        let replies = Recorder<UInt64>()
        store.enqueue(.increment, handledOrDropped: { replies.append($0?.version ?? 0) })
        store.enqueue(.increment, handledOrDropped: { replies.append($0?.version ?? 0) })
        #expect(await eventually { held.pendingCount == 1 })
        // Reduced, not written: nobody has heard of versions 1 and 2.
        #expect(seen.values.isEmpty && replies.values.isEmpty)
        // Sent while the batch is written: the next batch.
        store.enqueue(.set(7), handledOrDropped: { replies.append($0?.version ?? 0) })
        held.finish()
        #expect(await eventually { replies.values.count == 2 })
        #expect(seen.values == [1, 2])
        #expect(await eventually { held.pendingCount == 1 })
        #expect(replies.values == [1, 2])
        held.finish()
        #expect(await eventually { replies.values == [1, 2, 3] })
        let records = held.records
        #expect(records.map { $0.changes.map(\.version) } == [[1, 2], [3]])
        #expect(records.last?.snapshot.version == 3)
    }

    @Test func aFailedWriteUndoesTheBatchAndTellsItsSenders() async {
        let held = HeldJournal<Tally.Action, Tally.State>()
        let store = Store(reducer: Tally(), state: .init(), journal: held.journal())
        let seen = Recorder<UInt64>()
        _ = await store.observe { seen.append($0.version) }
        let failures = Recorder<String>()
        let plain = Recorder<UInt64?>()
        store.enqueue(.increment, handledOrDropped: { _ in failures.append("reply") }, notWritten: { failures.append("\($0)") })
        store.enqueue(.increment, handledOrDropped: { plain.append($0?.version) })
        #expect(await eventually { held.pendingCount == 1 })
        held.finish(TestError(description: "disk full"))
        #expect(await eventually { failures.values == ["disk full"] && plain.values.count == 1 })
        #expect(plain.values == [nil])
        #expect(seen.values.isEmpty)
        #expect(await store.snapshot.version == 0)
        // The store goes on from the state before the batch.
        let replies = Recorder<UInt64>()
        store.enqueue(.increment, handledOrDropped: { replies.append($0?.version ?? 0) })
        #expect(await eventually { held.pendingCount == 1 })
        held.finish()
        #expect(await eventually { replies.values == [1] })
        #expect(seen.values == [1])
        #expect(await store.snapshot.state.count == 1)
    }

    @Test func theNextBatchIsReducedWhileOneIsWrittenAndUndoneWithIt() async {
        let held = HeldJournal<Tally.Action, Tally.State>()
        let store = Store(reducer: Tally(), state: .init(), journal: held.journal())
        let seen = Recorder<UInt64>()
        _ = await store.observe { seen.append($0.version) }
        let failed = Recorder<String>()
        store.enqueue(.increment, handledOrDropped: { _ in failed.append("reply 1") }, notWritten: { _ in failed.append("1") })
        #expect(await eventually { held.pendingCount == 1 })
        store.enqueue(.increment, handledOrDropped: { _ in failed.append("reply 2") }, notWritten: { _ in failed.append("2") })
        // Reduced on top of the first while it is written: two writes in flight, a third waits.
        #expect(await eventually { held.pendingCount == 2 })
        store.enqueue(.increment, handledOrDropped: { _ in failed.append("reply 3") }, notWritten: { _ in failed.append("3") })
        #expect(held.records.map { $0.changes.map(\.version) } == [[1], [2]])
        held.finish(TestError(description: "disk full"))
        #expect(await eventually { failed.values.count == 2 })
        #expect(failed.values == ["1", "2"])  // both undone, in order
        held.finish()  // the second's late success is ignored: it was undone with the first
        #expect(await eventually { held.pendingCount == 1 })
        #expect(held.records.last?.changes.map(\.version) == [1])  // the third starts again from version 0
        held.finish()
        #expect(await eventually { failed.values == ["1", "2", "reply 3"] })
        #expect(seen.values == [1])
        #expect(await store.snapshot.version == 1)
    }

    @Test func notesTravelWithTheirActionsAndNoOpsAreNotChanges() async {
        let held = HeldJournal<Tally.Action, Tally.State>()
        let store = Store(reducer: Tally(), state: .init(), journal: held.journal())
        store.enqueue(.set(0), note: Note("a"), handledOrDropped: { _ in })  // no change
        store.enqueue(.set(5), note: Note("b"), handledOrDropped: { _ in })
        #expect(await eventually { held.pendingCount == 1 })
        let record = held.records[0]
        #expect(record.changes.map(\.version) == [1])
        #expect(record.noted.map { ($0.note as? Note)?.key } == ["a", "b"])
        #expect(record.noted.map(\.snapshot.version) == [0, 1])
        held.finish()
    }

    @Test func aResetEndsItsBatchAndIsJournaled() async {
        let held = HeldJournal<Tally.Action, Tally.State>()
        let store = Store(reducer: Tally(), state: .init(), journal: held.journal(gated: false))
        store.enqueue(.increment)
        store.enqueueReset(.restoringInitialState)
        store.enqueue(.increment)
        _ = await store.send(.increment)
        #expect(await eventually { held.records.flatMap(\.changes).count == 4 })
        let records = held.records
        #expect(records[0].endsWithReset)
        #expect(records[0].changes.map(\.version) == [1, 2])
        guard case .reset = records[0].changes[1].cause else {
            Issue.record("expected a reset change")
            return
        }
        #expect(records.dropFirst().flatMap(\.changes).map(\.version) == [3, 4])
    }

    @Test func aKeepingResetWritesNoChange() async {
        let held = HeldJournal<Tally.Action, Tally.State>()
        let store = Store(reducer: Tally(), state: .init(), journal: held.journal(gated: false))
        store.enqueue(.increment)
        store.enqueueReset(.keepingState)
        _ = await store.send(.increment)
        #expect(await eventually { held.records.flatMap(\.changes).count == 2 })
        let changes = held.records.flatMap(\.changes)
        #expect(changes.map(\.version) == [1, 2])
        let resets = changes.filter { change in
            if case .reset = change.cause { return true }
            return false
        }
        #expect(resets.isEmpty)
        let endingWithReset = held.records.filter(\.endsWithReset)
        #expect(endingWithReset.isEmpty)
    }

    @Test func aRecoveredStoreStartsAtItsVersionAndResetsToItsInitialState() async {
        var recovered = Tally.State()
        recovered.count = 41
        let store = Store(reducer: Tally(), state: .init(), recovered: Snapshot(version: 41, state: recovered))
        #expect(await store.send(.increment).version == 42)
        #expect(await store.reset(.restoringInitialState).state.count == 0)
    }
}
