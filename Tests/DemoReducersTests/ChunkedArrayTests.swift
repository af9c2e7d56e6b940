import DemoReducers
import Foundation
import JSON
import JSONCoding
import Statehouse
import StatehouseTestClients
import Synchronization
import Testing

/// `ChunkedArray` against `Array`, and the cached encodes and incremental patches of states holding it against a
/// fresh `JSONBytesEncoder` encode and `JSONPatch.diff`: random operation sequences (seeded, replayable).
struct ChunkedArrayTests {
    struct Row: Codable, Equatable, Sendable {
        var id: Int
        var text: String
        var done: Bool
    }

    /// An element whose encodes are counted (to show what a change re-encodes); used by one test only.
    struct CountedRow: Codable, Equatable, Sendable {
        static let encodes = Atomic<Int>(0)
        var id: Int
        var text: String
        var done: Bool

        init(id: Int, text: String, done: Bool) {
            self.id = id
            self.text = text
            self.done = done
        }

        enum CodingKeys: String, CodingKey { case id, text, done }

        func encode(to encoder: any Encoder) throws {
            Self.encodes.add(1, ordering: .relaxed)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(text, forKey: .text)
            try container.encode(done, forKey: .done)
        }
    }

    struct CountedState: Codable, Equatable, Sendable {
        var items: ChunkedArray<CountedRow>
    }

    /// A state with two chunked arrays (one nested), and fields beside them that change too.
    struct State: Codable, Equatable, Sendable {
        struct Inner: Codable, Equatable, Sendable {
            var numbers: ChunkedArray<Int> = []
            var label = ""
        }
        var items: ChunkedArray<Row> = []
        var inner = Inner()
        var nextID = 1
        var tags: [String] = []
    }

    /// The same state with plain arrays: what the wire JSON must stay.
    struct PlainState: Codable, Equatable {
        struct Inner: Codable, Equatable {
            var numbers: [Int]
            var label: String
        }
        var items: [Row]
        var inner: Inner
        var nextID: Int
        var tags: [String]

        init(_ state: State) {
            items = Array(state.items)
            inner = Inner(numbers: Array(state.inner.numbers), label: state.inner.label)
            nextID = state.nextID
            tags = state.tags
        }
    }

    /// One random change: append, insert, remove, edit, replace a range, remove where, replace all, or a change
    /// beside the arrays.
    static func change(_ state: inout State, _ mirror: inout [Row], _ random: inout SeededGenerator) {
        func row() -> Row {
            defer { state.nextID += 1 }
            return Row(id: state.nextID, text: "item \(state.nextID) \"quoted\" é", done: Bool.random(using: &random))
        }
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<30:
            let new = row()
            state.items.append(new)
            mirror.append(new)
        case 30..<45:
            let at = Int.random(in: 0...mirror.count, using: &random)
            let new = row()
            state.items.insert(new, at: at)
            mirror.insert(new, at: at)
        case 45..<58 where !mirror.isEmpty:
            let at = Int.random(in: 0..<mirror.count, using: &random)
            state.items.remove(at: at)
            mirror.remove(at: at)
        case 58..<75 where !mirror.isEmpty:
            let at = Int.random(in: 0..<mirror.count, using: &random)
            state.items[at].done.toggle()
            mirror[at].done.toggle()
        case 75..<82:
            let low = Int.random(in: 0...mirror.count, using: &random)
            let high = Int.random(in: low...min(mirror.count, low + 150), using: &random)
            let new = (0..<Int.random(in: 0..<90, using: &random)).map { _ in row() }
            state.items.replaceSubrange(low..<high, with: new)
            mirror.replaceSubrange(low..<high, with: new)
        case 82..<86:
            let modulus = Int.random(in: 2..<9, using: &random)
            state.items.removeAll { $0.id % modulus == 0 }
            mirror.removeAll { $0.id % modulus == 0 }
        case 86..<88:
            let new = (0..<Int.random(in: 0..<300, using: &random)).map { _ in row() }
            state.items = ChunkedArray(new)
            mirror = new
        case 88..<92:
            state.inner.numbers.append(Int.random(in: -5...5, using: &random))
        case 92..<95:
            state.inner.label += "x"
        default:
            if Bool.random(using: &random) { state.tags.append("t\(state.nextID)") } else { state.tags = [] }
            state.nextID += 1
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func randomChangesKeepBytesAndPatchesExact(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var state = State(items: ChunkedArray((0..<200).map { Row(id: -$0, text: "seed \($0)", done: false) }))
        var mirror = Array(state.items)
        var cache = JSONEncodeCache()
        var previous = try cache.encode(state)
        #expect(previous.isIncremental)
        for step in 0..<400 {
            let before = state
            Self.change(&state, &mirror, &random)
            #expect(Array(state.items) == mirror, "seed \(seed) step \(step): elements")
            #expect(state.items.count == mirror.count)
            #expect((state.items == ChunkedArray(mirror)) && (before == state) == (PlainState(before) == PlainState(state)))
            let encoded = try cache.encode(state)
            let fresh = try JSONBytesEncoder().encode(PlainState(state))
            #expect(encoded.bytes == fresh, "seed \(seed) step \(step): bytes")
            guard let ops = JSONIncrementalEncoding.patch(from: previous, to: encoded) else {
                Issue.record("seed \(seed) step \(step): no incremental patch")
                break
            }
            let old = try JSONValue(parsing: previous.bytes)
            let new = try JSONValue(parsing: fresh)
            let patched = try JSONPatch.apply(JSONPatch.parse(ops), to: old)
            #expect(patched == new, "seed \(seed) step \(step): patch \(String(decoding: ops, as: UTF8.self))")
            #expect(try JSONPatch.apply(JSONPatch.diff(from: old, to: new), to: old) == patched)
            // The ends known shared are shared, and within the shorter text.
            let known = JSONIncrementalEncoding.sharedEnds(previous.forgettingText(), encoded)
            let (a, b) = (previous.bytes, encoded.bytes)
            #expect(known.prefix + known.suffix <= min(a.count, b.count))
            #expect(a.prefix(known.prefix) == b.prefix(known.prefix), "seed \(seed) step \(step): prefix")
            #expect(a.suffix(known.suffix) == b.suffix(known.suffix), "seed \(seed) step \(step): suffix")
            if !state.items.isEmpty, before.items.count == state.items.count, before.inner == state.inner,
                before.tags == state.tags, before.nextID == state.nextID
            {
                // An edit of items alone: all but about one chunk is known shared.
                #expect(known.prefix + known.suffix >= a.count - 64 * 100, "seed \(seed) step \(step): \(known)")
            }
            previous = encoded
        }
        // The cache holds the chunks of the last encode only.
        #expect(cache.chunkCount <= (state.items.count + state.inner.numbers.count) / 1 + 2)
    }

    @Test func anAppendOrEditReencodesOneChunk() throws {
        var state = CountedState(items: ChunkedArray((0..<10_000).map { CountedRow(id: $0, text: "row \($0)", done: false) }))
        var cache = JSONEncodeCache()
        let first = try cache.encode(state)
        CountedRow.encodes.store(0, ordering: .relaxed)
        state.items.append(CountedRow(id: 10_000, text: "new", done: false))
        let appended = try cache.encode(state)
        #expect(CountedRow.encodes.load(ordering: .relaxed) <= ChunkedArray<CountedRow>.chunkCapacity)
        #expect(String(decoding: JSONIncrementalEncoding.patch(from: first, to: appended) ?? [], as: UTF8.self)
            == #"[{"op":"add","path":"/items/-","value":{"done":false,"id":10000,"text":"new"}}]"#)
        CountedRow.encodes.store(0, ordering: .relaxed)
        state.items[5_000].done = true
        let edited = try cache.encode(state)
        #expect(CountedRow.encodes.load(ordering: .relaxed) <= ChunkedArray<CountedRow>.chunkCapacity)
        #expect(String(decoding: JSONIncrementalEncoding.patch(from: appended, to: edited) ?? [], as: UTF8.self)
            == #"[{"op":"replace","path":"/items/5000","value":{"done":true,"id":5000,"text":"row 5000"}}]"#)
        CountedRow.encodes.store(0, ordering: .relaxed)
        state.items.insert(CountedRow(id: -1, text: "first", done: true), at: 0)
        _ = try cache.encode(state)
        #expect(CountedRow.encodes.load(ordering: .relaxed) <= 2 * ChunkedArray<CountedRow>.chunkCapacity)
        #expect(cache.chunkCount < 10_002 / ChunkedArray<CountedRow>.chunkCapacity + 4)
    }

    @Test func encodesAsAPlainArrayThroughOtherEncoders() throws {
        let rows = (0..<150).map { Row(id: $0, text: "r\($0)", done: $0 % 2 == 0) }
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(try foundation.encode(ChunkedArray(rows)) == foundation.encode(rows))
        #expect(try JSONBytesEncoder().encode(ChunkedArray(rows)) == JSONBytesEncoder().encode(rows))
        let decoded = try JSONDecoder().decode(ChunkedArray<Row>.self, from: foundation.encode(rows))
        #expect(Array(decoded) == rows)
        var cache = JSONEncodeCache()
        #expect(try cache.encode(ChunkedArray<Row>()).bytes == Array("[]".utf8))
    }

    @Test func aStateWithoutChunkedArraysIsEncodedPlainly() throws {
        var cache = JSONEncodeCache()
        let encoded = try cache.encode(["b": 1, "a": 2])
        #expect(!encoded.isIncremental && !cache.isCaching)
        #expect(encoded.bytes == Array(#"{"a":2,"b":1}"#.utf8))
        #expect(JSONIncrementalEncoding.patch(from: encoded, to: encoded) == nil)
    }

    /// A chunked array whose place changes (an element inserted before it in an enclosing array): no incremental
    /// patch (the caller diffs).
    @Test func aMovedArrayGivesNoPatch() throws {
        struct Outer: Codable { var lists: [ChunkedArray<Int>] }
        var cache = JSONEncodeCache()
        let before = try cache.encode(Outer(lists: [[1, 2], [3]]))
        let after = try cache.encode(Outer(lists: [[3]]))
        #expect(JSONIncrementalEncoding.patch(from: before, to: after) == nil)
        let list = try cache.encode(Outer(lists: [[3], [4]]))
        #expect(JSONIncrementalEncoding.patch(from: after, to: list) == nil)
    }

    @Test func todoListWireJSONIsUnchanged() throws {
        var state = TodoList.State()
        let reducer = TodoList()
        for index in 0..<100 { _ = reducer.reduce(state: &state, action: .add(text: "todo \(index)")) }
        _ = reducer.reduce(state: &state, action: .toggle(id: 7))
        _ = reducer.reduce(state: &state, action: .remove(id: 9))
        let text = String(decoding: try JSONBytesEncoder().encode(state), as: UTF8.self)
        #expect(text.hasPrefix(#"{"items":[{"done":false,"id":1,"text":"todo 0"},"#))
        #expect(text.contains(#"{"done":true,"id":7,"text":"todo 6"},{"done":false,"id":8,"text":"todo 7"},{"done":false,"id":10,"#))
        #expect(text.hasSuffix(#"{"done":false,"id":100,"text":"todo 99"}],"nextID":101}"#))
    }
}
