/// Renders two values as `dump` text and marks the lines that differ, for failure messages.
enum StateDiff {
    /// A line diff of `dump(expected)` against `dump(actual)`.
    ///
    /// Lines only in the expected dump start with `−`, lines only in the actual dump with `+`,
    /// shared lines with two spaces. Runs of more than `context` shared lines are folded to `…`.
    static func render<T>(expected: T, actual: T, context: Int = 3) -> String {
        let expectedLines = dumpLines(expected)
        let actualLines = dumpLines(actual)
        let difference = actualLines.difference(from: expectedLines)
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var marked: [(mark: Character, text: String)] = []
        var expectedIndex = 0
        var actualIndex = 0
        while expectedIndex < expectedLines.count || actualIndex < actualLines.count {
            if expectedIndex < expectedLines.count, removed.contains(expectedIndex) {
                marked.append(("−", expectedLines[expectedIndex]))
                expectedIndex += 1
            } else if actualIndex < actualLines.count, inserted.contains(actualIndex) {
                marked.append(("+", actualLines[actualIndex]))
                actualIndex += 1
            } else {
                marked.append((" ", expectedLines[min(expectedIndex, expectedLines.count - 1)]))
                expectedIndex += 1
                actualIndex += 1
            }
        }
        return fold(marked, context: context)
    }

    /// The `dump` output of `value`, one entry per line.
    static func dumpLines<T>(_ value: T) -> [String] {
        var text = ""
        dump(value, to: &text)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
            .filter { !$0.isEmpty }
    }

    /// Joins marked lines, keeping `context` shared lines around each change.
    private static func fold(_ lines: [(mark: Character, text: String)], context: Int) -> String {
        let changed = lines.indices.filter { lines[$0].mark != " " }
        var output: [String] = []
        var skipped = false
        for index in lines.indices {
            let near = changed.contains { abs($0 - index) <= context }
            if near {
                output.append("\(lines[index].mark) \(lines[index].text)")
                skipped = false
            } else if !skipped {
                output.append("  …")
                skipped = true
            }
        }
        return output.joined(separator: "\n")
    }
}
