import JSON
@testable import StatehouseServer
import Testing

/// The history keeps older versions as backward patches (or, under its budget, as their JSON) and rebuilds any held
/// version exactly: the same value the full copies gave.
@Suite struct StoreHistoryTests {
    /// A deterministic walk through to-do list states: adds, toggles, removals, edits and a bulk clear.
    static func states(count: Int) -> [[UInt8]] {
        var items: [(id: Int, text: String, done: Bool)] = []
        var nextID = 1
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var result: [[UInt8]] = []
        for step in 0..<count {
            switch items.isEmpty ? 0 : next(10) {
            case 0...3:
                items.append((nextID, "item \(nextID) \(String(repeating: "x", count: next(40)))", false))
                nextID += 1
            case 4, 5: items[next(items.count)].done.toggle()
            case 6: items.remove(at: next(items.count))
            case 7: items[next(items.count)].text += " edited"
            case 8 where step % 7 == 0: items.removeAll { $0.done }
            default: items.insert((nextID, "first \(nextID)", true), at: 0); nextID += 1
            }
            let list = items.map { #"{"done":\#($0.done),"id":\#($0.id),"text":"\#($0.text)"}"# }
            result.append(Array(#"{"items":[\#(list.joined(separator: ","))],"nextID":\#(nextID)}"#.utf8))
        }
        return result
    }

    /// Records every state and checks, after each, that every held version rebuilds to its original.
    func check(capacity: Int, fullBudget: Int, count: Int = 120) throws {
        let states = Self.states(count: count)
        var history = StoreHistory(capacity: capacity, initial: 0, json: states[0], fullBudget: fullBudget)
        for version in 1..<states.count {
            history.record(version: UInt64(version), json: states[version])
            #expect(history.newestVersion == UInt64(version))
            #expect(history.newestJSON == states[version])
            #expect(history.oldestVersion == UInt64(max(0, version - capacity + 1)))
            #expect(history.fullBytes <= fullBudget)
            for held in Int(history.oldestVersion)...version {
                let value = history.value(at: UInt64(held))
                #expect(value == (try JSONValue(parsing: states[held])), "version \(held) after recording \(version)")
            }
            if history.oldestVersion > 0 { #expect(history.value(at: history.oldestVersion - 1) == nil) }
        }
    }

    @Test func patchesOnlyRebuildEveryHeldVersion() throws {
        try check(capacity: 16, fullBudget: 0)
    }

    @Test func fullCopiesUnderTheBudgetRebuildEveryHeldVersion() throws {
        try check(capacity: 16, fullBudget: .max)
    }

    /// A budget of a few states: full steps and patches mixed, compacted from time to time.
    @Test func mixedStepsRebuildEveryHeldVersion() throws {
        try check(capacity: 16, fullBudget: 3_000)
        try check(capacity: 64, fullBudget: 3_000, count: 90)
    }

    @Test func aHistoryOfOneHoldsOnlyTheNewest() throws {
        try check(capacity: 1, fullBudget: 0, count: 10)
    }

    /// Past the budget nothing but the newest is kept in full: older versions take their deltas' bytes only.
    @Test func pastTheBudgetOlderStatesAreDeltas() throws {
        let states = Self.states(count: 70)
        var history = StoreHistory(capacity: 64, initial: 0, json: states[0], fullBudget: 0)
        for version in 1..<states.count { history.record(version: UInt64(version), json: states[version]) }
        let fullCopies = states[6..<69].reduce(0) { $0 + $1.count }
        #expect(history.fullBytes == 0)
        #expect(history.olderBytes * 4 < fullCopies, "\(history.olderBytes) bytes of deltas for \(fullCopies) of states")
        var under = StoreHistory(capacity: 64, initial: 0, json: states[0])
        for version in 1..<states.count { under.record(version: UInt64(version), json: states[version]) }
        #expect(under.fullBytes == fullCopies, "under the default budget: the states as they are")
    }

    @Test func byteDeltasRebuildTheirTarget() {
        let cases: [(String, String)] = [
            ("", ""), ("", "abc"), ("abc", ""), ("abc", "abc"), ("abcdefghij", "abcXefghij"),
            ("aaaaaaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaaaaaaa"), ("aaaaaaaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaaaaaa"),
            (#"{"items":[1,2,3],"n":4}"#, #"{"items":[1,2,3,4],"n":5}"#), ("0123456789abcdef0123", "0123456789abcdef"),
        ]
        for (base, target) in cases {
            let delta = ByteDelta(from: Array(base.utf8), to: Array(target.utf8))
            #expect(delta.apply(to: Array(base.utf8)) == Array(target.utf8), "\(base) -> \(target)")
            #expect(delta.prefix + delta.suffix <= min(base.utf8.count, target.utf8.count))
        }
        let local = ByteDelta(from: Array(#"{"items":[1,2,3],"n":4}"#.utf8), to: Array(#"{"items":[1,2,3,4],"n":5}"#.utf8))
        #expect(local.middle == Array(",4],\"n\":5".utf8))
    }

    @Test func projectionsAndCoverage() throws {
        let states = Self.states(count: 20)
        var history = StoreHistory(capacity: 8, initial: 0, json: states[0], fullBudget: 0)
        for version in 1..<states.count { history.record(version: UInt64(version), json: states[version]) }
        let path = try JSONPointer("/items/0/text")
        for version in 12...19 {
            let expected = (try JSONValue(parsing: states[version]))[pointer: path] ?? .null
            #expect(history.projection(at: UInt64(version), path: path) == expected)
        }
        #expect(history.projection(at: 15, path: try JSONPointer("/nope")) == .null)
        #expect(history.covers(12, epoch: history.epoch))
        #expect(!history.covers(11, epoch: history.epoch))
        #expect(!history.covers(19, epoch: "other"))
        #expect(history.value(at: 20) == nil)
    }
}
