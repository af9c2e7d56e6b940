import Foundation
import StatehouseCore
import StatehouseTestClients
import Testing
import Synchronization
import Locking

@Suite struct MailboxOrderingTests {
    @Test func oneSenderIsReducedInEnqueueOrder() async {
        let store = Store(reducer: Tally(), state: .init())
        for number in 1...10_000 {
            store.enqueue(.record(number))
        }
        let final = await store.send(.record(10_001))
        #expect(final.state.count == 10_001)
        #expect(final.state.outOfOrder == 0)
        #expect(final.state.last == 10_001)
    }

    @Test func manySendersAreReducedInGlobalEnqueueOrder() async {
        let store = Store(reducer: Tally(), state: .init())
        // The lock fixes a global enqueue order; the reduce order must match it exactly.
        let sequencer = Sequencer()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<2_000 {
                        sequencer.next { store.enqueue(.record($0)) }
                    }
                }
            }
        }
        let final = await store.send(.record(Int.max))
        #expect(final.state.count == 16_001)
        #expect(final.state.outOfOrder == 0)
    }

    @Test func hundredThousandConcurrentSendsAreAllReduced() async {
        let store = Store(reducer: Tally(), state: .init())
        let versions = await withTaskGroup(of: UInt64.self, returning: Set<UInt64>.self) { group in
            for _ in 0..<100_000 {
                group.addTask { await store.send(.increment).version }
            }
            var seen = Set<UInt64>()
            for await version in group { seen.insert(version) }
            return seen
        }
        #expect(await store.state.count == 100_000)
        #expect(await store.version == 100_000)
        // Each send saw the snapshot right after its own reduce: all versions distinct.
        #expect(versions.count == 100_000)
        #expect(versions.min() == 1 && versions.max() == 100_000)
    }

    @Test func completionRunsRightAfterItsOwnAction() async {
        let store = Store(reducer: Tally(), state: .init())
        let seen = Recorder<(UInt64, Int)>()
        for number in 1...3 {
            store.enqueue(.record(number)) { seen.append(($0.version, $0.state.last)) }
        }
        _ = await store.send(.record(4))
        #expect(seen.values.map(\.0) == [1, 2, 3])
        #expect(seen.values.map(\.1) == [1, 2, 3])
    }

    @Test func effectActionsGoThroughTheSameMailbox() async {
        let store = Store(
            reducer: Script(script: { action in
                action == .trigger("go") ? .just(.event("from effect")) : .none
            }),
            state: .init()
        )
        _ = await store.send(.trigger("go"))
        let final = await store.send(.event("after"))
        #expect(final.state.events == ["from effect", "after"])
    }
}

/// Hands out increasing numbers and runs the enqueue inside the same critical section.
final class Sequencer: Sendable {
    private let current = Locked(0)

    func next(_ body: (Int) -> Void) {
        current.withLock { current in
            current += 1
            body(current)
        }
    }
}
