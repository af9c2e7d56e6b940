import Foundation
import StatehouseCore
import Testing

/// A state using all three wrappers with synthesized `Equatable`, `Hashable` and `Codable`.
private struct WrappedState: Equatable, Hashable, Codable, Sendable {
    var plain = 0
    @Triggered var notice = "idle"
    @Ignored var cache = 0
    @CopyOnWrite var rows: [Int] = []
}

/// Writes fields of ``WrappedState``; every action is a single write.
private struct WrappedReducer: Reducer {
    enum Action: Sendable {
        case notice(String)
        case cache(Int)
        case appendRow(Int)
    }

    func reduce(state: inout WrappedState, action: Action) -> Effect<Action> {
        switch action {
        case .notice(let text): state.notice = text
        case .cache(let value): state.cache = value
        case .appendRow(let row): state.rows.append(row)
        }
        return .none
    }
}

@Suite struct TriggeredTests {
    @Test func writingAnEqualValueMakesTheStateUnequal() {
        let before = WrappedState()
        var after = before
        after.notice = "idle"
        #expect(after.notice == before.notice)
        #expect(after != before)
        #expect(after.$notice.writeCount == 1)
    }

    @Test func equalWriteCountsAndValuesCompareEqual() {
        var first = WrappedState()
        var second = WrappedState()
        first.notice = "a"
        second.notice = "a"
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        second.notice = "a"
        #expect(first != second)
    }

    @Test func differentValuesWithEqualCountsAreUnequal() {
        var first = Triggered(wrappedValue: 1)
        var second = Triggered(wrappedValue: 1)
        first.wrappedValue = 2
        second.wrappedValue = 3
        #expect(first.writeCount == second.writeCount)
        #expect(first != second)
    }

    @Test func inPlaceMutationCountsAsOneWrite() {
        var list = Triggered(wrappedValue: [1])
        list.wrappedValue.append(2)
        #expect(list.wrappedValue == [1, 2])
        #expect(list.writeCount == 1)
    }

    @Test func encodesTheValueOnlyAndDecodesWithAFreshCount() throws {
        var state = WrappedState()
        state.notice = "saved"
        state.notice = "saved"
        let json = try JSONEncoder().encode(state)
        let object = try #require(JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(object["notice"] as? String == "saved")
        let decoded = try JSONDecoder().decode(WrappedState.self, from: json)
        #expect(decoded.notice == "saved")
        #expect(decoded.$notice.writeCount == 0)
    }

    @Test func aStoreBumpsTheVersionForAnEqualWrite() async {
        let store = Store(reducer: WrappedReducer(), state: WrappedState())
        let first = await store.send(.notice("idle"))
        let second = await store.send(.notice("idle"))
        #expect(first.version == 1)
        #expect(second.version == 2)
    }
}

@Suite struct IgnoredTests {
    @Test func ignoredFieldsTakeNoPartInEqualityOrHashing() {
        var first = WrappedState()
        var second = WrappedState()
        first.cache = 1
        second.cache = 2
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        second.plain = 1
        #expect(first != second)
    }

    @Test func ignoredFieldsAreStillEncodedAndDecoded() throws {
        var state = WrappedState()
        state.cache = 42
        let json = try JSONEncoder().encode(state)
        let object = try #require(JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(object["cache"] as? Int == 42)
        let decoded = try JSONDecoder().decode(WrappedState.self, from: json)
        #expect(decoded.cache == 42)
    }

    @Test func aStoreKeepsTheVersionWhenOnlyAnIgnoredFieldChanges() async {
        let store = Store(reducer: WrappedReducer(), state: WrappedState())
        let snapshot = await store.send(.cache(7))
        #expect(snapshot.version == 0)
        #expect(snapshot.state.cache == 7)
    }
}

@Suite struct CopyOnWriteTests {
    @Test func copiesShareStorageUntilOneWrites() {
        var original = CopyOnWrite(wrappedValue: [1, 2, 3])
        let copy = original
        #expect(copy.sharesStorage(with: original))
        original.wrappedValue.append(4)
        #expect(!copy.sharesStorage(with: original))
        #expect(copy.wrappedValue == [1, 2, 3])
        #expect(original.wrappedValue == [1, 2, 3, 4])
    }

    @Test func aUniqueBoxIsMutatedInPlace() {
        var value = CopyOnWrite(wrappedValue: [1])
        let before = value.wrappedValue.withUnsafeBufferPointer { $0.baseAddress }
        value.wrappedValue.reserveCapacity(64)
        let reserved = value.wrappedValue.withUnsafeBufferPointer { $0.baseAddress }
        value.wrappedValue.append(2)
        let after = value.wrappedValue.withUnsafeBufferPointer { $0.baseAddress }
        #expect(before != nil)
        // After reserving, appends reuse the same buffer: the value was not copied out of the box.
        #expect(reserved == after)
    }

    @Test func setterOnASharedBoxLeavesTheOtherCopyAlone() {
        var original = CopyOnWrite(wrappedValue: "a")
        let copy = original
        original.wrappedValue = "b"
        #expect(copy.wrappedValue == "a")
        #expect(original.wrappedValue == "b")
    }

    @Test func equalityHashingAndCodingPassThrough() throws {
        let first = CopyOnWrite(wrappedValue: [1, 2])
        let second = CopyOnWrite(wrappedValue: [1, 2])
        #expect(!first.sharesStorage(with: second))
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first != CopyOnWrite(wrappedValue: [1]))
        let json = try JSONEncoder().encode(first)
        #expect(String(decoding: json, as: UTF8.self) == "[1,2]")
        #expect(try JSONDecoder().decode(CopyOnWrite<[Int]>.self, from: json) == first)
    }

    @Test func aStoreSeesCopyOnWriteChanges() async {
        let store = Store(reducer: WrappedReducer(), state: WrappedState())
        let snapshot = await store.send(.appendRow(5))
        #expect(snapshot.version == 1)
        #expect(snapshot.state.rows == [5])
    }
}
