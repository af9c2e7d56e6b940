import StatehouseCore
import Testing

struct DescribedRow: Equatable, Sendable {
    var id: Int
    var title: String
}

/// Internal (not `private`) so type names print without an "unknown context" part.
struct DescribedState: Equatable, Sendable {
    var plain = 0
    @CopyOnWrite var rows: [DescribedRow] = [DescribedRow(id: 1, title: "a")]
    @Ignored var cache = "warm"
    @Triggered var notice = "saved"
}

private func dumped(_ value: some Any) -> [String] {
    var text = ""
    dump(value, to: &text)
    return text.split(separator: "\n").map(String.init)
}

@Suite struct WrapperDescriptionTests {
    @Test func printShowsTheWrappedValues() {
        var state = DescribedState()
        state.notice = "saved"
        #expect(
            String(describing: state)
                == #"DescribedState(plain: 0, _rows: [StatehouseCoreTests.DescribedRow(id: 1, title: "a")], "#
                + #"_cache: "warm", _notice: "saved" (writeCount: 1))"#
        )
    }

    @Test func dumpShowsTheWrappedValuesNotTheStorage() {
        let lines = dumped(DescribedState())
        #expect(
            lines == [
                "▿ StatehouseCoreTests.DescribedState",
                "  - plain: 0",
                "  ▿ _rows: 1 element",
                "    ▿ StatehouseCoreTests.DescribedRow",
                "      - id: 1",
                #"      - title: "a""#,
                #"  - _cache: "warm""#,
                #"  - _notice: "saved" (writeCount: 0)"#,
            ]
        )
    }

    @Test func dumpsOfStatesThatDifferOnlyInWriteCountDiffer() {
        let before = DescribedState()
        var after = before
        after.notice = "saved"
        #expect(after != before)
        let difference = dumped(after).difference(from: dumped(before))
        #expect(difference.insertions.count == 1)
        #expect(difference.removals.count == 1)
        #expect(dumped(after).last == #"  - _notice: "saved" (writeCount: 1)"#)
    }

    @Test func eachWrapperForwardsDescriptionDebugDescriptionAndMirror() {
        let row = DescribedRow(id: 2, title: "b")
        let copyOnWrite = CopyOnWrite(wrappedValue: "x")
        let ignored = Ignored(wrappedValue: "x")
        var triggered = Triggered(wrappedValue: "x")
        triggered.wrappedValue = "y"
        #expect(copyOnWrite.description == "x")
        #expect(copyOnWrite.debugDescription == #""x""#)
        #expect(ignored.description == "x")
        #expect(ignored.debugDescription == #""x""#)
        #expect(triggered.description == "y")
        #expect(triggered.debugDescription == #""y" (writeCount: 1)"#)
        for mirror in [
            Mirror(reflecting: CopyOnWrite(wrappedValue: row)),
            Mirror(reflecting: Ignored(wrappedValue: row)),
            Mirror(reflecting: Triggered(wrappedValue: row)),
        ] {
            #expect(ObjectIdentifier(mirror.subjectType) == ObjectIdentifier(DescribedRow.self))
            #expect(mirror.children.map(\.label) == ["id", "title"])
        }
    }
}
